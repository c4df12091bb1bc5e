import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { ConfirmDialog, deleteQuestion } from '../../../components/ui/confirm-dialog.tsx';
import { plural } from '../../../lib/plural.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { videosQueryOptions, type AcademyVideo } from '../api/get-videos.ts';
import { categoriesQueryOptions, type AcademyCategory } from '../api/get-categories.ts';
import { useDeleteVideo } from '../api/delete-video.ts';
import { academyPaths } from '../paths.ts';
import { LockIcon } from './lock-icon.tsx';
import { VideoThumbnail } from './video-thumbnail.tsx';

/** /private/academy: the videos, newest first, with link, like count, Editar and Borrar. */
export function VideosScreen() {
  const videos = useQuery(videosQueryOptions());
  const categories = useQuery(categoriesQueryOptions());
  const newVideo = (
    <Link className="button button-primary" to={academyPaths.newVideo}>
      Nuevo vídeo
    </Link>
  );

  return (
    <>
      <PageHeader title="Vídeos" actions={newVideo}>
        {videos.data && <p className="muted">{plural(videos.data.length, 'vídeo', 'vídeos')}</p>}
      </PageHeader>
      {videos.isPending ? (
        <SkeletonList label="Cargando vídeos…" />
      ) : videos.isError ? (
        <p className="form-error" role="alert">
          No se pudieron cargar los vídeos.
        </p>
      ) : videos.data.length === 0 ? (
        <EmptyState title="Todavía no hay vídeos" action={newVideo}>
          Pega el enlace de un vídeo para añadirlo a la Academy.
        </EmptyState>
      ) : (
        <ul className="academy-list" aria-label="Vídeos">
          {videos.data.map((video) => (
            <VideoRow key={video.id} video={video} categories={categories.data ?? []} />
          ))}
        </ul>
      )}
    </>
  );
}

function VideoRow({ video, categories }: { video: AcademyVideo; categories: AcademyCategory[] }) {
  const deleteVideo = useDeleteVideo();
  const videoCategories = categories.filter((category) => video.categoryIds.includes(category.id));
  return (
    <li className="academy-item academy-video">
      <VideoThumbnail className="academy-thumbnail" src={video.thumbnail_url} />
      <div className="academy-item-main">
        <a className="academy-item-title" href={video.youtube_url} target="_blank" rel="noreferrer noopener">
          {video.title}
        </a>
        <p className="academy-meta">
          <span className="academy-likes">{plural(video.like_count ?? 0, 'me gusta', 'me gusta')}</span>
          <span>{video.language === 'en' ? 'Inglés' : 'Español'}</span>
          <span>{formatDateTime(video.created_on)}</span>
        </p>
        {videoCategories.length > 0 && (
          <ul className="academy-chips" aria-label="Categorías">
            {videoCategories.map((category) => (
              <li key={category.id} className="academy-chip">
                {category.name_es}
                {category.is_private && <LockIcon />}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="academy-actions">
        <Link className="button" to={academyPaths.editVideo(video.id)} aria-label={`Editar ${video.title}`}>
          Editar
        </Link>
        <ConfirmDialog
          title="Borrar vídeo"
          description={deleteQuestion(`el vídeo «${video.title}»`)}
          onConfirm={() => deleteVideo.mutate(video.id)}
          trigger={
            <button
              type="button"
              className="button button-danger"
              aria-label={`Borrar ${video.title}`}
              disabled={deleteVideo.isPending}
            >
              Borrar
            </button>
          }
        />
      </div>
    </li>
  );
}
