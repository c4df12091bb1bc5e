import { z } from 'zod';

/**
 * The deployment of this build: brand, public addresses, storage names and feature flags (spec section 1).
 * A disabled feature hides its menu entries and its routes.
 */
export const deploymentSchema = z.object({
  name: z.string().min(1),
  mainColor: z.string().regex(/^#[0-9A-Fa-f]{6}$/),
  logo: z.string().min(1),
  projectName: z.string().min(1),
  domain: z.url(),
  storage: z.object({ mediaBucket: z.string().min(1), feedBucket: z.string().min(1) }),
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
