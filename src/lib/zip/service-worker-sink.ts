/**
 * The download path of a browser-built ZIP: a small service worker (public/zip-download/service-worker.js)
 * receives the archive's stream from the page and answers a URL in its scope with it, as an attachment, so
 * the browser's own download manager writes it to disk as it is produced, with backpressure back to the page.
 */
const scope = `${import.meta.env.BASE_URL}zip-download/`;
const KEEP_ALIVE_MS = 10_000;
/** A worker that does not take the stream by then is not ours (or is broken): the download fails. */
const ACCEPT_TIMEOUT_MS = 10_000;

/** Streams can be handed to a worker (transferable streams): checked before relying on it. */
function streamsTransfer(): boolean {
  try {
    const stream = new ReadableStream();
    const channel = new MessageChannel();
    channel.port1.postMessage(stream, [stream]);
    channel.port1.close();
    channel.port2.close();
    return true;
  } catch {
    return false;
  }
}

let registering: Promise<ServiceWorker> | null = null;

async function activeWorker(): Promise<ServiceWorker> {
  const registration = await navigator.serviceWorker.register(`${scope}service-worker.js`, { scope });
  const worker = registration.active ?? registration.waiting ?? registration.installing;
  if (!worker) throw new Error('zip service worker: nothing registered');
  if (worker.state !== 'activated') {
    await new Promise<void>((resolve, reject) => {
      const onChange = () => {
        if (worker.state === 'activated') resolve();
        else if (worker.state === 'redundant') reject(new Error('zip service worker: redundant'));
        else return;
        worker.removeEventListener('statechange', onChange);
      };
      worker.addEventListener('statechange', onChange);
      onChange();
    });
  }
  return worker;
}

/** The zip service worker, ready to take a download; null where none can run (the caller falls back). */
export async function zipServiceWorker(): Promise<ServiceWorker | null> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext || !streamsTransfer()) return null;
  registering ??= activeWorker().catch((error: unknown) => {
    registering = null;
    throw error;
  });
  return registering.catch(() => null);
}

/**
 * Starts the download of `fileName` and returns where to write its bytes. The frame that asks for the URL
 * stays until the archive is finished; the worker is sent a message every few seconds meanwhile, since a
 * browser may stop an idle worker even while it relays a response.
 */
export async function serviceWorkerDownload(worker: ServiceWorker, fileName: string) {
  const id = crypto.randomUUID();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const channel = new MessageChannel();
  const accepted = new Promise<void>((resolve, reject) => {
    channel.port1.onmessage = () => resolve();
    setTimeout(() => reject(new Error('zip service worker: no answer')), ACCEPT_TIMEOUT_MS);
  });
  worker.postMessage({ type: 'zip-download', id, fileName, stream: readable }, [readable, channel.port2]);
  try {
    await accepted;
  } finally {
    channel.port1.close();
  }

  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = 'Descarga ZIP';
  frame.src = `${scope}${id}`;
  document.body.append(frame);
  const keepAlive = setInterval(() => worker.postMessage({ type: 'keep-alive' }), KEEP_ALIVE_MS);
  const done = () => {
    clearInterval(keepAlive);
    frame.remove();
  };
  return { writable, done };
}
