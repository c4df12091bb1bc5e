import { assertCanUpload, getBucket, publishObject, readableObject } from '../objects.ts';
import { ownerUuid } from '../access.ts';
import { json, readJson, type StorageRoute } from '../context.ts';
import { transferOf } from './transfer-body.ts';

/** POST /object/copy: the caller must read the source and may write the destination; bytes are duplicated. */
export const copyObject: StorageRoute = (app, { pool, blobs, caller }) =>
  app.post('/object/copy', async (c) => {
    const who = await caller(c);
    const body = await readJson(c);
    const { bucketId, sourceKey, destinationKey, destinationBucket } = transferOf(body);
    const source = await readableObject(pool, who, await getBucket(pool, bucketId), sourceKey);
    const target = await getBucket(pool, destinationBucket);
    await assertCanUpload(pool, who, target.id, destinationKey, false);
    const version = await blobs.duplicate(source.version!);
    try {
      const published = await publishObject(pool, {
        bucketId: target.id,
        name: destinationKey,
        version,
        owner: ownerUuid(who),
        ownerId: who.sub,
        metadata: { ...source.metadata!, lastModified: new Date().toISOString() },
        userMetadata: body.copyMetadata === false ? null : source.user_metadata,
        upsert: false,
      });
      return json(c, {
        Id: published.id,
        Key: `${target.id}/${destinationKey}`,
        name: destinationKey,
        bucket_id: target.id,
      });
    } catch (error) {
      await blobs.remove(version);
      throw error;
    }
  });
