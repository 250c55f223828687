/**
 * The SQL the OMOP source runs, against the OMOP CDM v5.4 tables of one schema. Identifiers
 * are quoted; the only values (the tertile fractions) are parameters.
 *
 * One query streams every visit with its facts, ordered by visit: a header row per visit
 * (part 0: the visit and its person, LEFT JOINed so a missing person is seen and reported),
 * then its conditions (1), the person's earlier conditions (2), measurements (3) and
 * observations (4). Every row has the same columns; a part leaves the others NULL.
 */
const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** A CDM table of the schema, both identifiers quoted. */
const tableOf = (schema: string) => (table: string): string => `${q(schema)}.${q(table)}`;

/** OMOP condition_status_concept_id "Primary diagnosis". */
export const PRIMARY_STATUS = 32902;
/** condition_type_concept_id values that mark a first-position / primary diagnosis. */
export const PRIMARY_TYPES = [38000183, 38000199, 38000215, 38000230, 44786627];

export function visitFactsSql(schema: string): string {
  const t = tableOf(schema);
  const icd10 = (alias: string) => `COALESCE(
      (SELECT s.concept_code FROM ${t('concept')} s WHERE s.concept_id = ${alias}.condition_source_concept_id AND s.vocabulary_id = 'ICD10CM'),
      (SELECT min(i.concept_code) FROM ${t('concept_relationship')} r JOIN ${t('concept')} i ON i.concept_id = r.concept_id_1
        WHERE r.concept_id_2 = ${alias}.condition_concept_id AND r.relationship_id = 'Maps to' AND i.vocabulary_id = 'ICD10CM'
          AND r.invalid_reason IS NULL))`;
  const rank = (alias: string) =>
    `CASE WHEN ${alias}.condition_status_concept_id = ${PRIMARY_STATUS} THEN 0 WHEN ${alias}.condition_type_concept_id IN (${PRIMARY_TYPES.join(', ')}) THEN 1 ELSE 2 END`;
  const none = `NULL::bigint AS person_id, NULL::integer AS year_of_birth, NULL::integer AS month_of_birth, NULL::integer AS day_of_birth, NULL::integer AS gender_concept_id`;
  const noValue = `NULL::float8 AS num, NULL::text AS unit, NULL::float8 AS range_low, NULL::float8 AS range_high, NULL::integer AS value_concept_id, NULL::text AS value_vocabulary, NULL::text AS value_code, NULL::text AS value_name, NULL::text AS value_text`;
  const concept = (c: string) => `${c}.concept_id AS concept_id, ${c}.vocabulary_id, ${c}.concept_code, ${c}.concept_name`;
  const condition = (part: number, alias: string, join: string) => `
    SELECT v.visit_occurrence_id AS visit_id, ${part} AS part, ${alias}.condition_occurrence_id AS row_id, ${alias}.condition_start_date::text AS start_date, ${none},
      ${concept('c')}, ${alias}.condition_concept_id AS raw_concept_id, ${alias}.condition_source_value AS source_value, ${noValue},
      ${rank(alias)} AS primary_rank, ${icd10(alias)} AS icd10
    FROM ${t('visit_occurrence')} v ${join}
    LEFT JOIN ${t('concept')} c ON c.concept_id = ${alias}.condition_concept_id`;
  const event = (part: number, table: 'measurement' | 'observation') => {
    const p = table;
    const valueText = table === 'measurement' ? `e.value_source_value` : `COALESCE(e.value_as_string, e.value_source_value)`;
    const ranges = table === 'measurement' ? `e.range_low::float8, e.range_high::float8` : `NULL::float8, NULL::float8`;
    return `
    SELECT e.visit_occurrence_id AS visit_id, ${part} AS part, e.${p}_id AS row_id, e.${p}_date::text AS start_date, ${none},
      ${concept('c')}, e.${p}_concept_id AS raw_concept_id, e.${p}_source_value AS source_value,
      e.value_as_number::float8 AS num, COALESCE(u.concept_code, e.unit_source_value) AS unit, ${ranges},
      NULLIF(e.value_as_concept_id, 0) AS value_concept_id, vc.vocabulary_id AS value_vocabulary, vc.concept_code AS value_code, vc.concept_name AS value_name,
      ${valueText} AS value_text, NULL::integer AS primary_rank, NULL::text AS icd10
    FROM ${t(table)} e
    LEFT JOIN ${t('concept')} c ON c.concept_id = e.${p}_concept_id
    LEFT JOIN ${t('concept')} u ON u.concept_id = NULLIF(e.unit_concept_id, 0)
    LEFT JOIN ${t('concept')} vc ON vc.concept_id = NULLIF(e.value_as_concept_id, 0)
    WHERE e.visit_occurrence_id IS NOT NULL`;
  };
  return `
    SELECT v.visit_occurrence_id AS visit_id, 0 AS part, NULL::bigint AS row_id, v.visit_start_date::text AS start_date,
      p.person_id, p.year_of_birth, p.month_of_birth, p.day_of_birth, p.gender_concept_id,
      NULL::integer AS concept_id, NULL::text AS vocabulary_id, NULL::text AS concept_code, NULL::text AS concept_name, NULL::integer AS raw_concept_id,
      NULL::text AS source_value, ${noValue}, NULL::integer AS primary_rank, NULL::text AS icd10
    FROM ${t('visit_occurrence')} v LEFT JOIN ${t('person')} p ON p.person_id = v.person_id
    UNION ALL ${condition(1, 'co', `JOIN ${t('condition_occurrence')} co ON co.visit_occurrence_id = v.visit_occurrence_id`)}
    UNION ALL ${condition(2, 'h', `JOIN ${t('condition_occurrence')} h ON h.person_id = v.person_id AND h.condition_start_date < v.visit_start_date
      AND h.visit_occurrence_id IS DISTINCT FROM v.visit_occurrence_id`)}
    UNION ALL ${event(3, 'measurement')}
    UNION ALL ${event(4, 'observation')}
    ORDER BY visit_id, part, row_id`;
}

/**
 * Tertile cut points, per concept, of the numeric values without a reference range (the
 * first pass): PostgreSQL computes them, so no value list is held by dxgraph. $1, $2 = 1/3, 2/3.
 */
export function tertilesSql(schema: string): string {
  const t = tableOf(schema);
  return `
    SELECT c.vocabulary_id, c.concept_code,
      percentile_cont($1::float8) WITHIN GROUP (ORDER BY x.v) AS c1, percentile_cont($2::float8) WITHIN GROUP (ORDER BY x.v) AS c2
    FROM (
      SELECT measurement_concept_id AS cid, value_as_number::float8 AS v FROM ${t('measurement')}
        WHERE value_as_number IS NOT NULL AND range_low IS NULL AND range_high IS NULL AND visit_occurrence_id IS NOT NULL
      UNION ALL
      SELECT observation_concept_id, value_as_number::float8 FROM ${t('observation')}
        WHERE value_as_number IS NOT NULL AND visit_occurrence_id IS NOT NULL
    ) x JOIN ${t('concept')} c ON c.concept_id = x.cid
    GROUP BY c.vocabulary_id, c.concept_code`;
}

/** Facts that name no visit: they cannot join a record, so they are counted and reported. */
export function factsWithoutVisitSql(schema: string): string {
  const t = tableOf(schema);
  return `SELECT
      (SELECT count(*) FROM ${t('measurement')} WHERE visit_occurrence_id IS NULL)::int AS measurement,
      (SELECT count(*) FROM ${t('observation')} WHERE visit_occurrence_id IS NULL)::int AS observation`;
}
