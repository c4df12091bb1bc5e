import type { MountedService, ServiceContext } from '../service.ts';

// Placeholder until the Realtime server lands (issue 4).
export async function createRealtimeService(_ctx: ServiceContext): Promise<MountedService> {
  return {
    handle(_req, res) {
      res.writeHead(501, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'realtime server not built yet' }));
    },
    async close() {},
  };
}
