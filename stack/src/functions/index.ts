import type { MountedService, ServiceContext } from '../service.ts';
import type { ProjectConfig } from '../project-config.ts';

export interface FunctionsOptions {
  functionsDir: string;
  postgresUrl: string;
  functions: ProjectConfig['functions'];
}

// Placeholder until the Deno functions runtime lands (issue 4).
export async function createFunctionsService(
  _ctx: ServiceContext,
  _options: FunctionsOptions,
): Promise<MountedService> {
  return {
    handle(_req, res) {
      res.writeHead(501, { 'Content-Type': 'text/plain' });
      res.end('functions runtime not built yet');
    },
    async close() {},
  };
}
