import * as z from 'zod/mini';

/**
 * The deployment of this build: brand, public addresses, storage names and feature flags (spec section 1).
 * A disabled feature hides its menu entries and its routes.
 */
// zod/mini (tree-shakable): this is parsed before the first paint, inside the initial JS budget.
const text = () => z.string().check(z.minLength(1));

export const deploymentSchema = z.object({
  name: text(),
  mainColor: z.string().check(z.regex(/^#[0-9A-Fa-f]{6}$/)),
  logo: text(),
  projectName: text(),
  domain: z.url(),
  storage: z.object({ mediaBucket: text(), feedBucket: text() }),
  features: z.object({
    users: z.boolean(),
    collections: z.boolean(),
    academy: z.boolean(),
    operations: z.boolean(),
    panoramas: z.boolean(),
    b2bSegmentation: z.boolean(),
    useShortTagIds: z.boolean(),
  }),
});

export type Deployment = z.infer<typeof deploymentSchema>;
export type Feature = keyof Deployment['features'];

export const deployment: Deployment = deploymentSchema.parse({
  name: 'Mediateca',
  mainColor: '#0084D8',
  logo: '/logo.svg',
  projectName: 'mediateca',
  domain: typeof window === 'undefined' ? 'http://127.0.0.1:5173' : window.location.origin,
  storage: { mediaBucket: 'media', feedBucket: 'public-feed' },
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
