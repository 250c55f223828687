import { Router } from 'express';
import { InputError, NotFoundError } from '../../errors.js';
import { SubcategoryIdSchema } from '../schemas.js';
import type { AppDeps } from '../ports.js';

export function kgRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/v1/kg/summary', async (_req, res) => {
    res.json(await deps.kg.summary());
  });
  router.get('/v1/kg/diseases', async (_req, res) => {
    res.json({ diseases: await deps.kg.diseases() });
  });
  router.get('/v1/kg/subcategories/:id/differences', async (req, res) => {
    const parsed = SubcategoryIdSchema.safeParse(req.params.id);
    if (!parsed.success) throw new InputError(`id: ${parsed.error.issues[0]!.message}`, { field: 'id' });
    const id = parsed.data;
    const differences = await deps.kg.differences(id);
    if (!differences) throw new NotFoundError('id: no subcategory with this id (see GET /v1/kg/diseases for the ids)');
    res.json(differences);
  });
  return router;
}
