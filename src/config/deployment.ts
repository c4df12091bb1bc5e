/**
 * The deployment of this build: brand, public addresses, storage names and feature flags.
 * A disabled feature hides its menu entries and its routes.
 */
export interface Deployment {
  name: string;
  mainColor: string;
  logo: string;
  projectName: string;
  domain: string;
  storage: { mediaBucket: string; feedBucket: string };
  /**
   * Admin rights need a second factor (TOTP, 'Mi cuenta'). The database enforces it from
   * private.security_settings.require_admin_mfa (set it to the same value on deploy); this flag makes the
   * app ask admins without an authenticator to enrol one.
   */
  requireAdminMfa?: boolean;
  features: {
    users: boolean;
    collections: boolean;
    academy: boolean;
    operations: boolean;
    panoramas: boolean;
    b2bSegmentation: boolean;
    useShortTagIds: boolean;
  };
}
export type Feature = keyof Deployment['features'];

const FEATURES: readonly Feature[] = [
  'users',
  'collections',
  'academy',
  'operations',
  'panoramas',
  'b2bSegmentation',
  'useShortTagIds',
];

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * What is wrong with a deployment configuration (empty when nothing). Checked by hand, not with zod: this runs
 * before the first paint, inside the files screen's initial JS budget.
 */
export function deploymentProblems(value: unknown): string[] {
  if (!isRecord(value)) return ['the deployment must be an object'];
  const { storage, features } = value;
  return [
    !isText(value.name) && 'name',
    !(typeof value.mainColor === 'string' && /^#[0-9A-Fa-f]{6}$/.test(value.mainColor)) && 'mainColor',
    !isText(value.logo) && 'logo',
    !isText(value.projectName) && 'projectName',
    !(typeof value.domain === 'string' && URL.canParse(value.domain.trim())) && 'domain',
    !(isRecord(storage) && isText(storage.mediaBucket) && isText(storage.feedBucket)) && 'storage',
    !(value.requireAdminMfa === undefined || typeof value.requireAdminMfa === 'boolean') && 'requireAdminMfa',
    !(isRecord(features) && FEATURES.every((feature) => typeof features[feature] === 'boolean')) && 'features',
  ].filter((problem): problem is string => typeof problem === 'string');
}

export function parseDeployment(value: unknown): Deployment {
  const problems = deploymentProblems(value);
  if (problems.length > 0) throw new Error(`Invalid deployment: ${problems.join(', ')}`);
  return value as Deployment;
}

export const deployment: Deployment = parseDeployment({
  name: 'Mediateca',
  mainColor: '#0084D8',
  logo: '/logo.svg',
  projectName: 'mediateca',
  domain: typeof window === 'undefined' ? 'http://127.0.0.1:5173' : window.location.origin,
  storage: { mediaBucket: 'media', feedBucket: 'public-feed' },
  requireAdminMfa: false,
  features: {
    users: true,
    collections: true,
    academy: true,
    operations: true,
    panoramas: false,
    b2bSegmentation: false,
    useShortTagIds: false,
  },
});

export const isEnabled = (feature: Feature) => deployment.features[feature];
