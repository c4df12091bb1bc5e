import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { thumbnailUrlQueryOptions } from '../api/get-thumbnail-url.ts';
import type { CollectionFile } from '../api/get-collection-files.ts';
import { useRemoveCollectionFile } from '../api/remove-collection-file.ts';
import { pictureOf } from '../../../lib/media/file-picture.ts';

/**
 * A file of the collection: its thumbnail (an image's, a PDF's first page) or extension tile, name, published
 * state and Quitar.
 */
export function CollectionFileCard({ collectionId, file }: { collectionId: string; file: CollectionFile }) {
  const picture = pictureOf(file);
  const thumbnail = useQuery({
    ...thumbnailUrlQueryOptions(picture ?? '', file.updated_at),
    enabled: picture !== null,
  });
  const remove = useRemoveCollectionFile();
  return (
    <li className="collection-file">
      <Link to={paths.file(file.id)} className="collection-file-link">
        {picture && thumbnail.data ? (
          <img
            className="file-tile file-thumbnail"
            src={thumbnail.data}
            alt=""
            width={300}
            height={225}
            loading="lazy"
          />
        ) : (
          <span className="file-tile" aria-hidden="true">
            {(file.extension || '?').toUpperCase()}
          </span>
        )}
        <span className="collection-file-name clamp-2" title={file.name_es}>
          {file.name_es}
        </span>
      </Link>
      <div className="collection-file-footer">
        <span className={file.published ? 'status status-published' : 'status'}>
          {file.published ? 'Activo' : 'No activo'}
        </span>
        <button
          type="button"
          className="button button-small"
          disabled={remove.isPending}
          aria-label={`Quitar ${file.name_es} de la colección`}
          onClick={() => remove.mutate({ collectionId, fileId: file.id })}
        >
          Quitar
        </button>
      </div>
    </li>
  );
}
