import type { RouteObject } from 'react-router-dom';

/** Public pages behind shared links (/file/{id}, /collection/{id}), open without signing in. */
export const publicRoutes: RouteObject[] = [];
