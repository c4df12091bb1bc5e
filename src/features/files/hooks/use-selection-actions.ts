import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { selectionSummaryQuery } from '../api/get-selection-summary.ts';
import { usePublishFiles } from '../api/publish-files.ts';
import { PROCESSING_DELETE_MESSAGE, useDeleteFiles } from '../api/delete-files.ts';
import { useAddFilesToCollection } from '../api/add-files-to-collection.ts';
import { useChangeFilesTags, type TagChange } from '../api/change-files-tags.ts';
import type { FileSelection } from '../api/selection.ts';
import { useDeleteKey } from './use-delete-key.ts';
import { collectionsQuery } from '../../../lib/catalogue/get-catalogue.ts';
import { useIsAdmin } from '../../../lib/auth/auth-provider.tsx';
import { paths } from '../../../config/paths.ts';
import { isEnabled } from '../../../config/deployment.ts';
import { filesZipPages } from '../../../lib/zip/files-zip-pages.ts';
import { useZipDownload } from '../../../lib/zip/use-zip-download.ts';

export interface Collection {
  id: string;
  name: string;
}

/**
 * What the selection bar can do with the selection, and what it shows: the count and how many are active (from
 * the database's summary, so 'Seleccionar todos' counts what it matches), activate/deactivate, the ZIP, editing
 * tags (replacing them, or adding or taking away some), adding to a collection, sharing, and deleting — asked first, refused while a file is processing. The
 * Delete key asks too (admins).
 */
export function useSelectionActions(selection: FileSelection, onClear: () => void) {
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [tagging, setTagging] = useState<TagChange | null>(null);
  const summary = useQuery(selectionSummaryQuery(selection));
  const collections = useQuery({ ...collectionsQuery, enabled: isAdmin });
  const publish = usePublishFiles();
  const remove = useDeleteFiles();
  const addToCollection = useAddFilesToCollection();
  const changeTags = useChangeFilesTags();
  const zip = useZipDownload();

  const count = summary.data?.count ?? (selection.kind === 'ids' ? selection.ids.length : 0);
  const published = summary.data?.published ?? 0;
  const busy = publish.isPending || remove.isPending || addToCollection.isPending || changeTags.isPending;
  // Until the summary is known the question would say '0 archivos' and could not refuse processing files.
  const canAskToDelete = isAdmin && !busy && Boolean(summary.data);

  const askToDelete = () => {
    setRefusal(null);
    if ((summary.data?.undeletable ?? 0) > 0) setRefusal(PROCESSING_DELETE_MESSAGE);
    else setConfirming(true);
  };
  useDeleteKey(canAskToDelete, askToDelete);

  // The archive is built in this tab from the originals' signed URLs and saved as it is written.
  const downloadZip = () => {
    const picked = selection.kind === 'ids' ? { fileIds: selection.ids } : { filter: { ...selection.filters } };
    const today = new Date().toISOString().slice(0, 10);
    zip.start({ fileName: `mediateca-${today}.zip`, fetchPage: filesZipPages(picked), totalFiles: count || undefined });
  };

  return {
    isAdmin,
    count,
    busy,
    refusal,
    zipStatus: zip.status,
    collections: collections.data,
    withCollections: isAdmin && isEnabled('collections'),
    showDeactivate: isAdmin && published > 0,
    showActivate: isAdmin && published < count,
    canAskToDelete,
    askToDelete,
    confirming,
    setConfirming,
    confirmDelete: () => remove.mutate({ selection, count }, { onSuccess: onClear }),
    sharing,
    setSharing,
    downloadZip,
    editTags: () => navigate(paths.editTagsFiles, { state: { selection, count } }),
    // Activar counts the inactive ones: when a rule refuses some, 'los demás' are those still to activate.
    setPublished: (value: boolean) =>
      publish.mutate({ selection, published: value, count: value ? count - published : count }),
    tagging,
    setTagging,
    changeTags: (tagIds: string[]) =>
      tagging && changeTags.mutate({ selection, change: tagging, tagIds }, { onSuccess: () => setTagging(null) }),
    changingTags: changeTags.isPending,
    addCollection: (collection: Collection) => addToCollection.mutate({ selection, collection }),
  };
}

export type SelectionActions = ReturnType<typeof useSelectionActions>;
