import { Link, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PROVIDER_OUT_OF_REACH, VideoInfoError, useFetchVideoInfo } from '../api/fetch-video-info.ts';
import { useFetchedVideo } from '../lib/fetched-video.tsx';
import { videoUrlSchema } from '../lib/schemas.ts';
import { publicThumbnailUrl, videoIdFromUrl, watchUrl } from '../lib/video-id.ts';
import { spanishError } from '../../../lib/errors.ts';
import { academyPaths } from '../paths.ts';
import { VideoThumbnail } from './video-thumbnail.tsx';
import { useSchemaForm } from '../../../lib/forms/use-mutation-form.ts';

/**
 * The fetch step of a new video: paste a URL, the video-info function asks the provider for its title and
 * thumbnail. The form is unsubmitted, then waiting on that call; the result waits in the fetched-video store
 * for the new-video form. When the provider cannot be asked (no key, a refused key, the provider down) the
 * admin is told so in plain words (the missing or refused key under 'Detalles técnicos'), and may go on by hand: the link's id gives the watch address
 * and the provider's public thumbnail, and the title and language are typed in the new-video form.
 */
/** What an admin who only wants to add a video reads; which secret is missing is folded away under it. */
const NOT_CONFIGURED_TEXT = 'La búsqueda automática de vídeos no está configurada: añade el vídeo a mano.';

export function FetchVideoScreen() {
  const { fetched, setFetched } = useFetchedVideo();
  const fetchInfo = useFetchVideoInfo();
  const form = useSchemaForm(videoUrlSchema, { defaultValues: { url: '' } });
  const urlError = form.formState.errors.url?.message;
  const navigate = useNavigate();
  const errorCode = fetchInfo.error instanceof VideoInfoError ? fetchInfo.error.code : null;
  const byHand = errorCode !== null && PROVIDER_OUT_OF_REACH.includes(errorCode);
  const notConfigured = errorCode === 'NOT_CONFIGURED';

  const enterByHand = () => {
    const videoId = videoIdFromUrl(form.getValues('url'));
    if (!videoId) return form.setError('url', { message: 'El campo no es una URL válida.' });
    setFetched({
      youtubeId: videoId,
      youtubeUrl: watchUrl(videoId),
      title: '',
      thumbnailUrl: publicThumbnailUrl(videoId),
    });
    void navigate(academyPaths.newVideo);
  };

  const submit = form.handleSubmit((values) => {
    setFetched(null);
    fetchInfo.mutate(values.url, { onSuccess: (info) => setFetched(info) });
  });

  return (
    <>
      <PageHeader title="Nuevo vídeo">
        <p className="muted">Pega el enlace del vídeo para obtener su título y su miniatura.</p>
      </PageHeader>
      <form className="academy-form" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor="video-url">URL del vídeo</label>
        <div className="academy-url-row">
          <input
            id="video-url"
            type="url"
            inputMode="url"
            placeholder="https://www.youtube.com/watch?v=…"
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? 'video-url-error' : undefined}
            {...form.register('url')}
          />
          <button type="submit" className="button button-primary" disabled={fetchInfo.isPending}>
            {fetchInfo.isPending ? 'Obteniendo…' : 'Obtener información'}
          </button>
        </div>
        {urlError && (
          <p id="video-url-error" className="form-error" role="alert">
            {urlError}
          </p>
        )}
        {fetchInfo.isError && (
          <p className="form-error" role="alert">
            {notConfigured ? NOT_CONFIGURED_TEXT : spanishError(fetchInfo.error)}
          </p>
        )}
        {byHand && (
          <div className="academy-by-hand">
            {notConfigured && (
              <details className="academy-technical-detail">
                <summary>Detalles técnicos</summary>
                <p>{spanishError(fetchInfo.error)}</p>
                <p>Se añade en el panel de Supabase del proyecto, en Edge Functions → Secrets.</p>
              </details>
            )}
            <p>Puedes añadir el vídeo a mano: escribe su título y su idioma en el paso siguiente.</p>
            <button type="button" className="button" onClick={enterByHand}>
              Añadir a mano
            </button>
          </div>
        )}
      </form>
      {fetched && (
        <section className="academy-fetched" aria-labelledby="fetched-title">
          <VideoThumbnail className="academy-fetched-thumbnail" src={fetched.thumbnailUrl} />
          <div>
            <h2 id="fetched-title">{fetched.title || 'Vídeo sin título'}</h2>
            <p>
              <a href={fetched.youtubeUrl} target="_blank" rel="noreferrer noopener">
                {fetched.youtubeUrl}
              </a>
            </p>
            <Link className="button button-primary" to={academyPaths.newVideo}>
              Continuar
            </Link>
          </div>
        </section>
      )}
    </>
  );
}
