interface CurrentFile {
  extension: string | null;
  is_image: boolean | null;
}

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'heic', 'heif', 'tif', 'tiff', 'bmp']);

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

const describe = (isImage: boolean, extension: string) =>
  `${isImage ? 'una imagen' : 'un documento'}${extension ? ` ${extension.toUpperCase()}` : ''}`;

/**
 * What to ask before new bytes replace a file of another kind (a JPG by a PDF, a PDF by a photo): everything
 * that shows the file (collections, public links, the feed) will show the new kind. Null when the kind stays.
 */
export function replacementWarning(current: CurrentFile, chosen: { name: string; type: string }): string | null {
  const extension = extensionOf(chosen.name);
  const chosenIsImage = chosen.type.startsWith('image/') || IMAGE_EXTENSIONS.has(extension);
  const currentIsImage = Boolean(current.is_image);
  if (chosenIsImage === currentIsImage) return null;
  const was = describe(currentIsImage, (current.extension ?? '').toLowerCase());
  const becomes = describe(chosenIsImage, extension);
  return `El archivo actual es ${was} y el nuevo es ${becomes}. Las colecciones y los enlaces públicos mostrarán el nuevo archivo. ¿Reemplazarlo de todos modos?`;
}
