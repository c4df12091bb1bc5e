import { errors } from '../errors.ts';
import { validateObjectName } from '../objects.ts';

/** The body of a move or copy: source bucket and key, destination key and (optionally) bucket. */
export function transferOf(body: Record<string, unknown>) {
  const { bucketId, sourceKey, destinationKey } = body as Record<string, string | undefined>;
  if (!bucketId || !sourceKey || !destinationKey)
    throw errors.invalidRequest('bucketId, sourceKey and destinationKey are required');
  validateObjectName(destinationKey);
  const destinationBucket = (body.destinationBucket as string | undefined) || bucketId;
  return { bucketId, sourceKey, destinationKey, destinationBucket };
}
