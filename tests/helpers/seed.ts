/**
 * What supabase/seed.sql creates, in one place: tests name seed rows and accounts from here instead of
 * copying literals.
 */
export const seedAccounts = {
  ADMIN: { id: 'a0000000-0000-4000-8000-000000000001', email: 'admin@mediateca.local', password: 'mediateca-admin' },
  UPLOADER: {
    id: 'a0000000-0000-4000-8000-000000000002',
    email: 'uploader@mediateca.local',
    password: 'mediateca-uploader',
  },
  FRONT: { id: 'a0000000-0000-4000-8000-000000000003', email: 'front@mediateca.local', password: 'mediateca-front' },
  OPERATIONS: {
    id: 'a0000000-0000-4000-8000-000000000004',
    email: 'operations@mediateca.local',
    password: 'mediateca-operations',
  },
} as const;

export type SeedRole = keyof typeof seedAccounts;

export const seedTagCategories = {
  espacios: 'c0000000-0000-4000-8000-000000000001',
  temporada: 'c0000000-0000-4000-8000-000000000002',
  usoInterno: 'c0000000-0000-4000-8000-000000000003',
} as const;

export const seedTags = {
  piscina: 'd0000000-0000-4000-8000-000000000001',
  habitacion: 'd0000000-0000-4000-8000-000000000002',
  restaurante: 'd0000000-0000-4000-8000-000000000003',
  spa: 'd0000000-0000-4000-8000-000000000004',
  verano: 'd0000000-0000-4000-8000-000000000005',
  invierno: 'd0000000-0000-4000-8000-000000000006',
  borrador: 'd0000000-0000-4000-8000-000000000007',
} as const;

/** Seed files: 1 pool (published, admin), 2 suite (published, uploader), 3 menu png (uploader), 4 rates pdf
 * (published, operations, admin), 5 spa (admin), 6 docx (uploader). */
export const seedFiles = {
  piscina: 'f0000000-0000-4000-8000-000000000001',
  suite: 'f0000000-0000-4000-8000-000000000002',
  menu: 'f0000000-0000-4000-8000-000000000003',
  tarifas: 'f0000000-0000-4000-8000-000000000004',
  spa: 'f0000000-0000-4000-8000-000000000005',
  cancion: 'f0000000-0000-4000-8000-000000000006',
} as const;

export const seedCollections = {
  /** Public; files piscina, suite, cancion. */
  verano: 'e0000000-0000-4000-8000-000000000001',
  /** Private; file tarifas. */
  agencias: 'e0000000-0000-4000-8000-000000000002',
} as const;

export const seedAcademyCategories = {
  atencion: 'b0000000-0000-4000-8000-000000000001',
  recepcion: 'b0000000-0000-4000-8000-000000000002',
  /** Private. */
  direccion: 'b0000000-0000-4000-8000-000000000003',
} as const;

export const seedAcademyVideos = {
  bienvenida: 'b1000000-0000-4000-8000-000000000001',
  complaints: 'b1000000-0000-4000-8000-000000000002',
  ocupacion: 'b1000000-0000-4000-8000-000000000003',
} as const;

/** Academy members (academy_users rows linked to Auth accounts). Lucía is granted the private Dirección. */
export const seedAcademyMembers = {
  lucia: {
    id: 'b2000000-0000-4000-8000-000000000001',
    authId: 'a0000000-0000-4000-8000-000000000101',
    email: 'lucia@agencia.example',
    password: 'academy-lucia',
  },
  tom: {
    id: 'b2000000-0000-4000-8000-000000000002',
    authId: 'a0000000-0000-4000-8000-000000000102',
    email: 'tom@travel.example',
    password: 'academy-tom',
  },
} as const;
