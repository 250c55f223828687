import { z } from 'zod';

/**
 * The CDS Hooks 2.0 wire format dxgraph speaks (https://cds-hooks.hl7.org/2.0/), limited to
 * what it uses: the discovery response, the hook request, and cards with links. The request
 * schema is loose where the specification lets clients add fields (context, extensions), and
 * strict on what dxgraph reads, so a malformed request is a 400 naming the field.
 */

/** `fhirAuthorization`: an OAuth 2.0 bearer token the service may use against `fhirServer`. */
const fhirAuthorization = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().nonnegative(),
  scope: z.string(),
  subject: z.string(),
  patient: z.string().optional(),
});

/** The context of patient-view and encounter-start: userId and patientId required, encounterId optional. */
const context = z.looseObject({
  userId: z.string().min(1),
  patientId: z.string().min(1),
  encounterId: z.string().min(1).optional(),
});

export const hookRequestSchema = z.looseObject({
  hook: z.string().min(1),
  hookInstance: z.string().min(1),
  fhirServer: z.url().optional(),
  fhirAuthorization: fhirAuthorization.optional(),
  context,
  // A key the client could not fill is absent or null (spec: "prefetch").
  prefetch: z.record(z.string(), z.unknown().nullable()).optional(),
});

export type HookRequest = z.infer<typeof hookRequestSchema>;

export type Indicator = 'info' | 'warning' | 'critical';

export interface CardLink {
  label: string;
  url: string;
  type: 'absolute' | 'smart';
  appContext?: string;
}

export interface Card {
  uuid?: string;
  /** Under 140 characters (spec). */
  summary: string;
  /** GitHub-flavoured markdown. */
  detail?: string;
  indicator: Indicator;
  source: { label: string; url?: string; icon?: string };
  links?: CardLink[];
}

export interface CdsService {
  hook: string;
  title?: string;
  description: string;
  id: string;
  prefetch?: Record<string, string>;
  usageRequirements?: string;
}

export const SUMMARY_MAX = 139;
