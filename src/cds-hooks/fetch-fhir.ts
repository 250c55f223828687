import { err, ok, type Result } from '../result.js';
import { errorMessage } from '../errors.js';

/**
 * One FHIR REST read of a prefetch the client did not send (spec: "the CDS Service MAY ...
 * fetch the data from the FHIR server"), with the client's bearer token and a hard timeout.
 * Failures are values: the caller answers 412, the spec's status for data it cannot obtain.
 * Messages name the resource type and status only, never the response (it is patient data).
 */
export interface FhirRead {
  fhirServer: string;
  /** A filled prefetch template: "Patient/123", "Observation?patient=123&_count=200". */
  query: string;
  accessToken: string | null;
  timeoutMs: number;
}

export async function readFhir(r: FhirRead, fetchImpl: typeof fetch = fetch): Promise<Result<unknown, string>> {
  const url = `${r.fhirServer.replace(/\/+$/, '')}/${r.query}`;
  const what = r.query.split(/[/?]/)[0];
  let res: Response;
  try {
    res = await fetchImpl(url, {
      headers: { accept: 'application/fhir+json', ...(r.accessToken !== null ? { authorization: `Bearer ${r.accessToken}` } : {}) },
      signal: AbortSignal.timeout(r.timeoutMs),
      redirect: 'error',
    });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    return err(timedOut ? `fhirServer: no answer for ${what} within ${r.timeoutMs} ms` : `fhirServer: ${what} could not be read (${errorMessage(e)})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    return err(`fhirServer answered ${res.status} for ${what}`);
  }
  try {
    return ok(await res.json());
  } catch {
    return err(`fhirServer: the ${what} answer is not JSON`);
  }
}
