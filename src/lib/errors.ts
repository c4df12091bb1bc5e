import { isRequestTimeout } from './request-deadline.ts';

const DATABASE_RECONNECTING = 'El servidor está volviendo a conectar con la base de datos. Inténtalo en unos segundos.';

/**
 * Every error a person sees is Spanish. Errors come from supabase-js (PostgREST/Postgres codes, Auth, Storage,
 * Functions), from tus and from the browser; this turns each into one Spanish sentence. A message written in
 * Spanish on purpose (our own, or a database exception raised in Spanish) passes through unchanged.
 */
const BY_POSTGRES_CODE: Record<string, string> = {
  '23505': 'Ya existe un elemento con esos datos.',
  '23503': 'No se puede completar: el elemento está en uso o ya no existe.',
  '23502': 'Faltan datos obligatorios.',
  '23514': 'Alguno de los datos no es válido.',
  '22001': 'Uno de los textos es demasiado largo.',
  '22023': 'Alguno de los datos no es válido.',
  '22P02': 'Alguno de los datos no es válido.',
  '42501': 'No tienes permiso para hacer esto.',
  PGRST116: 'No se encontró el elemento.',
  PGRST301: 'Tu sesión ha caducado. Vuelve a iniciar sesión.',
  P0002: 'No se encontró el elemento.',
  '40001': 'Otra persona estaba cambiando lo mismo. Inténtalo de nuevo.',
  '57014': 'El servidor tardó demasiado en responder. Inténtalo de nuevo.',
  // PostgREST has lost its database (a restart, a failover) and is finding it again.
  PGRST000: DATABASE_RECONNECTING,
  PGRST001: DATABASE_RECONNECTING,
  PGRST002: DATABASE_RECONNECTING,
};

/**
 * Refusals the database marks with a hint of ours: their sentence wins over the generic one of their SQLSTATE
 * (a rule on rights is a check violation for Postgres, but the person needs to know which rule).
 */
const BY_HINT: Record<string, string> = {
  RIGHTS_EXPIRED: 'No se pueden publicar archivos con los derechos caducados',
};

const SPANISH_HINT = /[áéíóúñ¿¡]|^(No |El campo|Todos los campos|Ya existe|Otra persona|Tu sesión)/i;

function errorParts(error: unknown): {
  code?: string;
  hint?: string;
  message: string;
  status?: number;
  name?: string;
} {
  if (error instanceof Error || (typeof error === 'object' && error !== null)) {
    const value = error as { code?: unknown; hint?: unknown; message?: unknown; status?: unknown; name?: unknown };
    return {
      code: typeof value.code === 'string' ? value.code : undefined,
      hint: typeof value.hint === 'string' ? value.hint : undefined,
      message: typeof value.message === 'string' ? value.message : '',
      status: typeof value.status === 'number' ? value.status : undefined,
      name: typeof value.name === 'string' ? value.name : undefined,
    };
  }
  return { message: typeof error === 'string' ? error : '' };
}

export function spanishError(error: unknown, fallback = 'Algo salió mal. Inténtalo de nuevo.'): string {
  const { code, hint, message, status, name } = errorParts(error);
  if (isRequestTimeout(error) || code === 'UPSTREAM_TIMEOUT' || status === 504) {
    return 'El servidor tardó demasiado en responder. Inténtalo de nuevo.';
  }
  if (name === 'AbortError') return 'La operación se canceló.';
  if (hint && BY_HINT[hint]) return BY_HINT[hint];
  if (code && BY_POSTGRES_CODE[code]) return BY_POSTGRES_CODE[code];
  // Storage's disk is full (the local stack's 507; a tus error carries it in its message).
  if (status === 507 || code === 'InsufficientStorage' || /response code: 507|InsufficientStorage/.test(message)) {
    return 'No queda espacio en el servidor para guardar el archivo. Avisa a un administrador.';
  }
  if (/Failed to fetch|NetworkError|Load failed|network|ECONNREFUSED|tus: failed to/i.test(message)) {
    return 'No hay conexión con el servidor. Comprueba la red e inténtalo de nuevo.';
  }
  if (/Invalid login credentials/i.test(message)) return 'Correo electrónico o contraseña incorrectos.';
  if (/JWT expired|invalid JWT|session/i.test(message) || status === 401) {
    return 'Tu sesión ha caducado. Vuelve a iniciar sesión.';
  }
  if (status === 403) return 'No tienes permiso para hacer esto.';
  if (status === 404) return 'No se encontró el elemento.';
  if (status === 413) return 'El archivo es demasiado grande.';
  if (status === 429) return 'Demasiados intentos. Espera un momento e inténtalo de nuevo.';
  if (message && SPANISH_HINT.test(message) && message.length < 300) return message;
  return fallback;
}

/**
 * SQLSTATE classes of a failure that a second try may not meet: connection exceptions, transaction rollbacks
 * (serialization, deadlock), insufficient resources, operator intervention (a timeout, a restart).
 */
const TRANSIENT_SQLSTATE = /^(08|40|53|57)/;

/**
 * PostgREST answering without its database (PGRST000–002, HTTP 503): after a restart or a failover it finds
 * the database again by itself, backing off between attempts, so the answer comes back within seconds to
 * tens of seconds (under 15 s in the load benchmark's restart).
 */
export function isDatabaseReconnecting(error: unknown): boolean {
  const { code } = errorParts(error);
  return code !== undefined && /^PGRST00[0-2]$/.test(code);
}

/**
 * The app's rule for a failed read (its query client's default): while PostgREST reconnects to its database,
 * five more tries 1, 2, 4, 8 and 16 s apart, so a restart is a wait and not an error on the screen; another
 * failure that may pass, one more try after a second; a refusal, none.
 */
export const readRetry = {
  retry: (failures: number, error: unknown): boolean =>
    isDatabaseReconnecting(error) ? failures < 5 : failures < 1 && isWorthRetrying(error),
  retryDelay: (failures: number): number => 1000 * 2 ** failures,
};

/**
 * Whether a failed read is worth one more try. A refusal (a 4xx, an RLS or constraint error, a missing object)
 * answers the same a second later: retrying it only adds load, and once made a page of missing thumbnails
 * sign its 40 URLs again a second later. A lost connection, a 5xx or a PostgREST connection error may pass.
 */
export function isWorthRetrying(error: unknown): boolean {
  const { code, status, name } = errorParts(error);
  // A request past its deadline is not tried again behind the person's back: the screen says so at once and
  // offers 'Reintentar' (a second wait as long as the first would keep it on its skeletons twice as long).
  if (name === 'AbortError' || isRequestTimeout(error)) return false;
  if (status !== undefined) return status === 0 || status >= 500;
  if (code) return code.startsWith('PGRST00') || TRANSIENT_SQLSTATE.test(code);
  return true;
}
