import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { adminStats } from '../orders/service.js';

export function registerAdminRoutes(app: FastifyInstance, { db }: AppDeps): void {
  // Every /api/admin/* route is behind the admin guard registered in app.ts.
  app.get('/api/admin/stats', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const recent = await db
      .selectFrom('users')
      .select(['id', 'email', 'full_name', 'role', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(5)
      .execute();
    return {
      stats: await adminStats(db),
      recentUsers: recent.map((u) => ({ id: u.id, email: u.email, fullName: u.full_name, role: u.role, createdAt: u.created_at })),
    };
  });
}
