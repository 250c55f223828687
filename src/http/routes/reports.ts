import { Router } from 'express';
import { NotFoundError } from '../../errors.js';
import { REPORT_ID } from '../../reports/report-id.js';
import type { ReportStore } from '../../reports/report-store.js';
import type { OwnerOf } from '../../sessions/owner.js';
import { reportHref } from '../../reports/llm-reports.js';

/** How long a client is asked to wait before polling a pending report again. */
export const REPORT_RETRY_S = 2;

/**
 * `GET /v1/reports/:id`: the LLM's answer to a `/v1/diagnose` (llm-reports.ts). 200 with the
 * whole DiagnoseResult once settled (`report.status` "done", or "failed" with the evidence
 * differential and `degraded: true`); 202 `{report: {status: "pending", href}}` with Retry-After
 * while the model writes; 404 for an unknown, expired or another API key's id (the same answer,
 * so an id reveals nothing to another key).
 */
export function reportRoutes(store: ReportStore, ownerOf: OwnerOf): Router {
  const router = Router();
  router.get('/v1/reports/:id', async (req, res) => {
    const id = req.params.id;
    const report = REPORT_ID.test(id) ? await store.get(id, ownerOf(req)) : null;
    if (!report) throw new NotFoundError('report not found or expired');
    if (report.status === 'pending' || report.body === null) {
      res.status(202).set('Retry-After', String(REPORT_RETRY_S)).json({ report: { status: 'pending', href: reportHref(id) } });
      return;
    }
    res.type('application/json').send(report.body);
  });
  return router;
}
