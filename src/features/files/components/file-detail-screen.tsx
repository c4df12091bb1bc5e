import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { supabase } from '../../../lib/supabase.ts';
import { deployment, isEnabled } from '../../../config/deployment.ts';
import { paths } from '../../../config/paths.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { catalogueKeys } from '../../../lib/catalogue/keys.ts';
import { getCollections, getTagCategories, getTags } from '../../../lib/catalogue/get-catalogue.ts';
import { fileKeys } from '../api/keys.ts';
import { deleteFiles, publishFiles } from '../api/bulk-actions.ts';
import { requestFeedRegeneration } from '../../../lib/background-jobs.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { replaceFile } from '../../../lib/uploads/replace-file.ts';

const REQUIRED = 'El campo es obligatorio.';
const tooLong = (max: number) => `El campo no debe ser mayor a ${max} caracteres.`;
const COPY_CONFIRMATION_MS = 1000;
const DELETE_PROCESSING_AFTER_MS = 60 * 60 * 1000;

const formSchema = z.object({
  name_es: z.string().trim().min(1, REQUIRED).max(500, tooLong(500)),
  name_en: z.string().trim().min(1, REQUIRED).max(500, tooLong(500)),
  description_es: z.string().max(10000, tooLong(10000)),
  description_en: z.string().max(10000, tooLong(10000)),
  b2b: z.boolean(),
  operations: z.boolean(),
  tagIds: z.array(z.string()),
  collectionIds: z.array(z.string()),
});
type FormValues = z.infer<typeof formSchema>;

async function getFileDetail(id: string, signal?: AbortSignal) {
  const { data, error } = await supabase
    .from('files')
    .select('*, file_tags(tag_id), collection_files(collection_id)')
    .eq('id', id)
    .abortSignal(signal!)
    .single();
  if (error) throw error;
  return data;
}

async function signedUrl(path: string, options: { download?: string; transform?: { width: number; height: number } }) {
  const { data, error } = await supabase.storage.from(deployment.storage.mediaBucket).createSignedUrl(path, 3600, {
    ...(options.download ? { download: options.download } : {}),
    ...(options.transform ? { transform: { ...options.transform, resize: 'contain' as const } } : {}),
  });
  if (error) throw error;
  return data.signedUrl;
}

/** File detail and edit (spec section 2 "File detail"). */
export function FileDetailScreen() {
  const { id = '' } = useParams();
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const file = useQuery({ queryKey: fileKeys.detail(id), queryFn: ({ signal }) => getFileDetail(id, signal) });
  const categories = useQuery({
    queryKey: catalogueKeys.tagCategories,
    queryFn: ({ signal }) => getTagCategories(signal),
  });
  const tags = useQuery({ queryKey: catalogueKeys.tags, queryFn: ({ signal }) => getTags(signal) });
  const collections = useQuery({
    queryKey: catalogueKeys.collections,
    queryFn: ({ signal }) => getCollections(signal),
    enabled: isAdmin,
  });
  const data = file.data;
  const links = useQuery({
    queryKey: [...fileKeys.detail(id), 'links', data?.object_path, data?.updated_at],
    enabled: !!data,
    staleTime: 50 * 60 * 1000,
    queryFn: async () => ({
      original: await signedUrl(data!.object_path, { download: data!.original_file_name }),
      preview:
        data!.is_image && !data!.processing
          ? await signedUrl(data!.object_path, { transform: { width: 1024, height: 768 } })
          : null,
      large:
        data!.is_image && !data!.processing
          ? await signedUrl(data!.object_path, { transform: { width: 2048, height: 1536 } })
          : null,
    }),
  });
  const [copied, setCopied] = useState(false);
  // When the screen was opened: a processing upload older than an hour may be deleted (spec section 4).
  const [openedAt] = useState(() => Date.now());
  const [actionError, setActionError] = useState<string | null>(null);
  const [replacing, setReplacing] = useState<number | null>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const replace = async (chosen: File | undefined) => {
    if (!chosen) return;
    setActionError(null);
    setReplacing(0);
    try {
      await replaceFile(id, chosen, setReplacing);
      await queryClient.invalidateQueries({ queryKey: fileKeys.all });
    } catch (error) {
      setActionError((error as Error).message);
    } finally {
      setReplacing(null);
    }
  };

  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), mode: 'onChange', delayError: 100 });
  const { reset } = form;
  // The saved file is the form's starting point; edits stay in the form until Guardar.
  useEffect(() => {
    if (!data) return;
    reset({
      name_es: data.name_es,
      name_en: data.name_en,
      description_es: data.description_es,
      description_en: data.description_en,
      b2b: data.b2b,
      operations: data.operations,
      tagIds: data.file_tags.map((link) => link.tag_id),
      collectionIds: data.collection_files.map((link) => link.collection_id),
    });
  }, [data, reset]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: fileKeys.all });
    requestFeedRegeneration();
  };
  const save = useMutation({
    mutationFn: async (values: FormValues) => {
      const fields: Record<string, string | boolean> = {
        name_es: values.name_es,
        name_en: values.name_en,
        description_es: values.description_es,
        description_en: values.description_en,
      };
      if (isAdmin) Object.assign(fields, { b2b: values.b2b, operations: values.operations });
      const { error } = await supabase.rpc('update_file', {
        p_file_id: id,
        p_fields: fields,
        p_tag_ids: values.tagIds,
        ...(isAdmin ? { p_collection_ids: values.collectionIds } : {}),
      });
      if (error) throw error;
    },
    onSuccess: refresh,
  });
  const publish = useMutation({
    mutationFn: (published: boolean) => publishFiles({ kind: 'ids', ids: [id] }, published),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => deleteFiles({ kind: 'ids', ids: [id] }),
    onSuccess: async () => {
      await refresh();
      navigate(paths.files);
    },
    onError: (error: { hint?: string }) =>
      setActionError(
        error.hint === 'FILES_PROCESSING' ? 'No se pueden borrar archivos en proceso' : 'No se pudo borrar el archivo.',
      ),
  });

  if (file.isPending) return <Spinner label="Cargando archivo…" />;
  if (file.isError || !data) return <p role="alert">No se encontró el archivo.</p>;

  const sharingUrl = `${window.location.origin}/file/${data.id}`;
  const copyUrl = async () => {
    try {
      await navigator.clipboard.writeText(sharingUrl);
      setCopied(true);
      setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    } catch {
      window.alert('No se pudo copiar la URL');
    }
  };
  const canDelete = !data.processing || openedAt - new Date(data.uploaded_on).getTime() > DELETE_PROCESSING_AFTER_MS;
  const errors = form.formState.errors;

  return (
    <section className="page file-detail">
      <h1>{data.name_es}</h1>
      <p>{links.data ? <a href={links.data.original}>{data.original_file_name}</a> : data.original_file_name}</p>
      <div className="file-detail-top">
        <div className="file-preview">
          {data.processing ? (
            <Spinner label="Procesando" />
          ) : links.data?.preview ? (
            <a href={links.data.large ?? links.data.original} target="_blank" rel="noreferrer">
              <img src={links.data.preview} alt={`Vista previa de ${data.name_es}`} />
            </a>
          ) : (
            <a className="file-tile" href={links.data?.original} aria-label={`Descargar ${data.original_file_name}`}>
              {(data.extension || '?').toUpperCase()}
            </a>
          )}
        </div>
        <dl className="file-facts">
          <dt>Estado</dt>
          <dd>{data.published ? 'Activo' : 'No activo'}</dd>
          <dt>Tamaño</dt>
          <dd>{formatSize(data.size)}</dd>
          <dt>Fecha</dt>
          <dd>{formatDateTime(data.uploaded_on)}</dd>
          <dt>Subido por</dt>
          <dd>{data.uploader_email ?? '—'}</dd>
        </dl>
        <div className="file-actions">
          <button type="button" className="button" onClick={() => void copyUrl()}>
            {copied ? 'URL copiada' : 'Copiar URL'}
          </button>
          <button
            type="button"
            className="button"
            disabled={replacing !== null}
            onClick={() => replaceInput.current?.click()}
          >
            Subir nuevo archivo
          </button>
          <input
            ref={replaceInput}
            type="file"
            hidden
            aria-label="Subir nuevo archivo"
            onChange={(event) => {
              void replace(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          {replacing !== null && <progress max={1} value={replacing} aria-label="Progreso de la subida" />}
          {isAdmin && (
            <button
              type="button"
              className="button"
              disabled={publish.isPending}
              onClick={() => publish.mutate(!data.published)}
            >
              {data.published ? 'Desactivar' : 'Activar'}
            </button>
          )}
          {isAdmin && canDelete && (
            <button
              type="button"
              className="button button-danger"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(`¿Seguro que deseas borrar ${data.name_es}? Esta acción no se puede deshacer.`))
                  remove.mutate();
              }}
            >
              Borrar
            </button>
          )}
          {actionError && (
            <p className="form-error" role="alert">
              {actionError}
            </p>
          )}
        </div>
      </div>

      <form className="file-form" onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <fieldset>
          <legend>Español</legend>
          <label htmlFor="name_es">Título</label>
          <input id="name_es" {...form.register('name_es')} aria-invalid={!!errors.name_es} />
          {errors.name_es && <span className="form-error">{errors.name_es.message}</span>}
          <label htmlFor="description_es">Descripción</label>
          <textarea id="description_es" rows={3} {...form.register('description_es')} />
          {errors.description_es && <span className="form-error">{errors.description_es.message}</span>}
        </fieldset>
        <fieldset>
          <legend>English</legend>
          <label htmlFor="name_en">Título (inglés)</label>
          <input id="name_en" {...form.register('name_en')} aria-invalid={!!errors.name_en} />
          {errors.name_en && <span className="form-error">{errors.name_en.message}</span>}
          <label htmlFor="description_en">Descripción (inglés)</label>
          <textarea id="description_en" rows={3} {...form.register('description_en')} />
          {errors.description_en && <span className="form-error">{errors.description_en.message}</span>}
        </fieldset>
        {isAdmin && (
          <fieldset>
            <legend>Opciones</legend>
            <label className="checkbox">
              <input type="checkbox" {...form.register('b2b')} /> B2B
            </label>
            {isEnabled('operations') && (
              <label className="checkbox">
                <input type="checkbox" {...form.register('operations')} /> Operaciones
              </label>
            )}
          </fieldset>
        )}
        {(categories.data ?? []).map((category) => (
          <fieldset key={category.id} className="tag-group">
            <legend>{category.name_es}</legend>
            {(tags.data ?? [])
              .filter((tag) => tag.category_id === category.id)
              .map((tag) => (
                <label key={tag.id} className="checkbox">
                  <input type="checkbox" value={tag.id} {...form.register('tagIds')} /> {tag.name_es}
                </label>
              ))}
          </fieldset>
        ))}
        {isAdmin && isEnabled('collections') && (
          <fieldset className="tag-group">
            <legend>Colecciones</legend>
            {(collections.data ?? []).map((collection) => (
              <label key={collection.id} className="checkbox">
                <input type="checkbox" value={collection.id} {...form.register('collectionIds')} /> {collection.name}
              </label>
            ))}
          </fieldset>
        )}
        {save.isError && (
          <p className="form-error" role="alert">
            No se pudieron guardar los cambios.
          </p>
        )}
        {save.isSuccess && !form.formState.isDirty && <p role="status">Cambios guardados.</p>}
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          Guardar
        </button>
      </form>
    </section>
  );
}
