import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { supabase } from '../../../lib/supabase.ts';
import { deployment } from '../../../config/deployment.ts';
import { paths } from '../../../config/paths.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import type { FileRow } from '../api/search-files.ts';
import { fileKeys } from '../api/keys.ts';
import { publishFiles } from '../api/bulk-actions.ts';
import { requestFeedRegeneration } from '../../../lib/background-jobs.ts';

/** The admin info panel of a card (spec section 2): facts, the Activo toggle, Editar and Preview or Descargar. */
export function FileInfoButton({ file }: { file: FileRow }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const queryClient = useQueryClient();
  const link = useQuery({
    queryKey: [...fileKeys.detail(file.id), 'info-link', file.object_path],
    enabled: open,
    staleTime: 50 * 60 * 1000,
    queryFn: async () => {
      const bucket = supabase.storage.from(deployment.storage.mediaBucket);
      const { data, error } = file.is_image
        ? await bucket.createSignedUrl(file.object_path, 3600, {
            transform: { width: 2048, height: 1536, resize: 'contain' },
          })
        : await bucket.createSignedUrl(file.object_path, 3600, { download: file.original_file_name });
      if (error) throw error;
      return data.signedUrl;
    },
  });
  const toggle = useMutation({
    mutationFn: (published: boolean) => publishFiles({ kind: 'ids', ids: [file.id] }, published),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: fileKeys.all });
      requestFeedRegeneration();
    },
  });
  return (
    <div className="file-info">
      <button
        type="button"
        className="file-info-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Información de ${file.name_es}`}
        onClick={() => setOpen((value) => !value)}
      >
        i
      </button>
      {open && (
        <div id={panelId} className="file-info-panel" role="group" aria-label={`Información de ${file.name_es}`}>
          <strong>{file.name_es}</strong>
          <span>{formatSize(file.size)}</span>
          <span>{formatDateTime(file.uploaded_on)}</span>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={file.published}
              disabled={toggle.isPending}
              onChange={(event) => toggle.mutate(event.target.checked)}
            />
            {file.published ? 'Activo' : 'No activo'}
          </label>
          <span className="file-info-links">
            <Link to={paths.file(file.id)}>Editar</Link>
            {link.data && (
              <a href={link.data} target={file.is_image ? '_blank' : undefined} rel="noreferrer">
                {file.is_image ? 'Preview' : 'Descargar'}
              </a>
            )}
          </span>
        </div>
      )}
    </div>
  );
}
