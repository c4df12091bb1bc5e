import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useCreateVideo } from '../api/save-video.ts';
import { useFetchedVideo } from '../lib/fetched-video.tsx';
import { academyPaths } from '../paths.ts';
import { VideoThumbnail } from './video-thumbnail.tsx';
import { VideoForm } from './video-form.tsx';

/** /private/academy/new-video: only after the fetch step; the fetched info is cleared once created. */
export function NewVideoScreen() {
  const { fetched, setFetched } = useFetchedVideo();
  const createVideo = useCreateVideo();
  const navigate = useNavigate();
  // Clearing the info after creation must not bounce the admin to the fetch step on the way out.
  const [created, setCreated] = useState(false);

  if (!fetched) return created ? null : <Navigate to={academyPaths.fetchVideo} replace />;

  return (
    <>
      <PageHeader title="Nuevo vídeo" />
      <div className="academy-fetched">
        <VideoThumbnail className="academy-fetched-thumbnail" src={fetched.thumbnailUrl} />
        <p>
          <a href={fetched.youtubeUrl} target="_blank" rel="noreferrer noopener">
            {fetched.youtubeUrl}
          </a>
        </p>
      </div>
      <VideoForm
        defaultValues={{ title: fetched.title, language: 'es', categoryIds: [] }}
        pending={createVideo.isPending}
        submitLabel="Crear vídeo"
        onSubmit={(fields) =>
          createVideo.mutate(
            { fields, info: fetched },
            {
              onSuccess: () => {
                setCreated(true);
                setFetched(null);
                void navigate(academyPaths.videos);
              },
            },
          )
        }
      />
    </>
  );
}
