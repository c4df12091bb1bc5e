import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SkeletonList } from '../../../components/ui/skeleton.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { videoQueryOptions } from '../api/get-video.ts';
import { useUpdateVideo } from '../api/save-video.ts';
import { academyPaths } from '../paths.ts';
import { VideoForm } from './video-form.tsx';
import { VideoThumbnail } from './video-thumbnail.tsx';

/** /private/academy/edit-video/{videoId}. */
export function EditVideoScreen() {
  const { videoId = '' } = useParams();
  const video = useQuery(videoQueryOptions(videoId));
  const updateVideo = useUpdateVideo(videoId);
  const navigate = useNavigate();

  if (video.isPending) return <SkeletonList rows={4} label="Cargando vídeo…" />;
  if (video.isError)
    return (
      <EmptyState
        title="No se encontró el vídeo"
        action={
          <Link className="button" to={academyPaths.videos}>
            Volver a los vídeos
          </Link>
        }
      />
    );
  const { data } = video;
  return (
    <>
      <PageHeader title="Editar vídeo">
        <p>
          <a href={data.youtube_url} target="_blank" rel="noreferrer noopener">
            {data.youtube_url}
          </a>
        </p>
      </PageHeader>
      <VideoThumbnail className="academy-fetched-thumbnail" src={data.thumbnail_url} />
      <VideoForm
        key={data.id}
        defaultValues={{
          title: data.title,
          language: data.language === 'en' ? 'en' : 'es',
          categoryIds: data.categoryIds,
        }}
        pending={updateVideo.isPending}
        submitLabel="Guardar"
        onSubmit={(fields) => updateVideo.mutate(fields, { onSuccess: () => void navigate(academyPaths.videos) })}
      />
    </>
  );
}
