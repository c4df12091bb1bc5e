import { deployment } from '../../../config/deployment.ts';

/** A collection's public URL is the admin domain plus collection/{id}. */
export const publicCollectionUrl = (id: string) => `${deployment.domain.replace(/\/$/, '')}/collection/${id}`;
