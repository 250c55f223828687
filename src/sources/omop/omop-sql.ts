/**
 * The SQL the OMOP source runs, against the OMOP CDM v5.4 tables of one schema. Identifiers
 * are quoted; the only values (the tertile fractions) are parameters.
 *
 * One query streams every visit with its facts, ordered by visit: a header row per visit
 * (part 0: the visit and its person, LEFT JOINed so a missing person is seen and reported),
 * then its conditions (1), the person's earlier conditions (2), measurements (3),
 * observations (4) and, when the schema has the tables, its notes (5) and the note_nlp terms
 * of those notes (6). Every row has the same columns; a part leaves the others NULL.
 */
const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** A CDM table of the schema, both identifiers quoted. */
const tableOf = (schema: string) => (table: string): string => `${q(schema)}.${q(table)}`;

/** OMOP condition_status_concept_id "Primary diagnosis". */
export const PRIMARY_STATUS = 32902;
/** condition_type_concept_id values that mark a first-position / primary diagnosis. */
export const PRIMARY_TYPES = [38000183, 38000199, 38000215, 38000230, 44786627];

/** Which of the optional CDM tables the schema has (the OHDSI DDL creates them; subsets may not). */
export interface NoteTables {
  note: boolean;
  noteNlp: boolean;
}

export const NO_NOTE_TABLES: NoteTables = { note: false, noteNlp: false };

/** $1 = the schema: does it have `note` / `note_nlp`? */
export const noteTablesSql = `SELECT to_regclass(format('%I.%I', $1::text, 'note')) IS NOT NULL AS note,
  to_regclass(format('%I.%I', $1::text, 'note_nlp')) IS NOT NULL AS note_nlp`;

/**
 * The visit of each note: its visit_occurrence_id, else the visit of the same person whose
 * dates contain the note's date (the latest such start, then the lowest id); NULL if none.
 * (`::date`: some CDM exports keep note_date as a timestamp.)
 */
function noteVisitCte(t: (table: string) => string): string {
  return `note_visit AS (
    SELECT n.note_id, COALESCE(n.visit_occurrence_id, (
      SELECT v.visit_occurrence_id FROM ${t('visit_occurrence')} v
      WHERE v.person_id = n.person_id AND n.note_date::date BETWEEN v.visit_start_date AND COALESCE(v.visit_end_date, v.visit_start_date)
      ORDER BY v.visit_start_date DESC, v.visit_occurrence_id LIMIT 1)) AS visit_id
    FROM ${t('note')} n)`;
}

/** Per condition concept of the schema, the lowest valid ICD-10-CM code that 'Maps to' it. */
function icd10MappedCte(t: (table: string) => string): string {
  return `icd10_mapped AS (
    SELECT r.concept_id_2 AS concept_id, min(i.concept_code) AS icd10
    FROM ${t('concept_relationship')} r JOIN ${t('concept')} i ON i.concept_id = r.concept_id_1
    WHERE r.relationship_id = 'Maps to' AND i.vocabulary_id = 'ICD10CM' AND r.invalid_reason IS NULL
      AND r.concept_id_2 IN (SELECT condition_concept_id FROM ${t('condition_occurrence')})
    GROUP BY r.concept_id_2)`;
}

export function visitFactsSql(schema: string, tables: NoteTables = NO_NOTE_TABLES): string {
  const t = tableOf(schema);
  // The ICD-10-CM code: the source concept's, else the lowest ICD-10-CM code that 'Maps to' the
  // standard concept. The mapped code is looked up once per condition concept (the icd10_mapped
  // CTE), not once per row: part 2 repeats every earlier condition for each later visit.
  const icd10 = (alias: string) => `COALESCE(
      (SELECT s.concept_code FROM ${t('concept')} s WHERE s.concept_id = ${alias}.condition_source_concept_id AND s.vocabulary_id = 'ICD10CM'),
      ${alias}_m.icd10)`;
  const mappedJoin = (alias: string) => `LEFT JOIN icd10_mapped ${alias}_m ON ${alias}_m.concept_id = ${alias}.condition_concept_id`;
  const rank = (alias: string) =>
    `CASE WHEN ${alias}.condition_status_concept_id = ${PRIMARY_STATUS} THEN 0 WHEN ${alias}.condition_type_concept_id IN (${PRIMARY_TYPES.join(', ')}) THEN 1 ELSE 2 END`;
  const none = `NULL::bigint AS person_id, NULL::integer AS year_of_birth, NULL::integer AS month_of_birth, NULL::integer AS day_of_birth, NULL::integer AS gender_concept_id`;
  const noValue = `NULL::float8 AS num, NULL::text AS unit, NULL::float8 AS range_low, NULL::float8 AS range_high, NULL::integer AS value_concept_id, NULL::text AS value_vocabulary, NULL::text AS value_code, NULL::text AS value_name, NULL::text AS value_text`;
  const concept = (c: string) => `${c}.concept_id AS concept_id, ${c}.vocabulary_id, ${c}.concept_code, ${c}.concept_name`;
  const noConcept = `NULL::integer AS concept_id, NULL::text AS vocabulary_id, NULL::text AS concept_code, NULL::text AS concept_name`;
  const noTerm = `NULL::text AS term_exists, NULL::text AS term_temporal, NULL::text AS term_modifiers`;
  const noNote = `NULL::text AS note_order, NULL::text AS note_title, NULL::text AS note_text, ${noTerm}`;
  const condition = (part: number, alias: string, join: string) => `
    SELECT v.visit_occurrence_id AS visit_id, ${part} AS part, ${alias}.condition_occurrence_id AS row_id, ${alias}.condition_start_date::text AS start_date, ${none},
      ${concept('c')}, ${alias}.condition_concept_id AS raw_concept_id, ${alias}.condition_source_value AS source_value, ${noValue},
      ${rank(alias)} AS primary_rank, ${icd10(alias)} AS icd10, ${noNote}
    FROM ${t('visit_occurrence')} v ${join}
    LEFT JOIN ${t('concept')} c ON c.concept_id = ${alias}.condition_concept_id
    ${mappedJoin(alias)}`;
  const event = (part: number, table: 'measurement' | 'observation') => {
    const p = table;
    const valueText = table === 'measurement' ? `e.value_source_value` : `COALESCE(e.value_as_string, e.value_source_value)`;
    const ranges = table === 'measurement' ? `e.range_low::float8, e.range_high::float8` : `NULL::float8, NULL::float8`;
    return `
    SELECT e.visit_occurrence_id AS visit_id, ${part} AS part, e.${p}_id AS row_id, e.${p}_date::text AS start_date, ${none},
      ${concept('c')}, e.${p}_concept_id AS raw_concept_id, e.${p}_source_value AS source_value,
      e.value_as_number::float8 AS num, COALESCE(u.concept_code, e.unit_source_value) AS unit, ${ranges},
      NULLIF(e.value_as_concept_id, 0) AS value_concept_id, vc.vocabulary_id AS value_vocabulary, vc.concept_code AS value_code, vc.concept_name AS value_name,
      ${valueText} AS value_text, NULL::integer AS primary_rank, NULL::text AS icd10, ${noNote}
    FROM ${t(table)} e
    LEFT JOIN ${t('concept')} c ON c.concept_id = e.${p}_concept_id
    LEFT JOIN ${t('concept')} u ON u.concept_id = NULLIF(e.unit_concept_id, 0)
    LEFT JOIN ${t('concept')} vc ON vc.concept_id = NULLIF(e.value_as_concept_id, 0)
    WHERE e.visit_occurrence_id IS NOT NULL`;
  };
  // Notes: the title is note_title, else the name of the note's class, else of its type concept.
  const note = `
    SELECT nv.visit_id, 5 AS part, n.note_id AS row_id, n.note_date::date::text AS start_date, ${none},
      ${noConcept}, NULL::integer AS raw_concept_id, NULL::text AS source_value, ${noValue}, NULL::integer AS primary_rank, NULL::text AS icd10,
      n.note_date::date::text AS note_order, COALESCE(NULLIF(btrim(n.note_title), ''), nc.concept_name, nt.concept_name) AS note_title, n.note_text::text AS note_text, ${noTerm}
    FROM note_visit nv JOIN ${t('note')} n ON n.note_id = nv.note_id
    LEFT JOIN ${t('concept')} nc ON nc.concept_id = NULLIF(n.note_class_concept_id, 0)
    LEFT JOIN ${t('concept')} nt ON nt.concept_id = NULLIF(n.note_type_concept_id, 0)
    WHERE nv.visit_id IS NOT NULL`;
  const noteNlp = `
    SELECT nv.visit_id, 6 AS part, x.note_nlp_id AS row_id, NULL::text AS start_date, ${none},
      ${concept('c')}, x.note_nlp_concept_id AS raw_concept_id, x.lexical_variant::text AS source_value, ${noValue}, NULL::integer AS primary_rank, NULL::text AS icd10,
      NULL::text AS note_order, NULL::text AS note_title, NULL::text AS note_text,
      x.term_exists::text AS term_exists, x.term_temporal::text AS term_temporal, x.term_modifiers::text AS term_modifiers
    FROM ${t('note_nlp')} x JOIN note_visit nv ON nv.note_id = x.note_id
    LEFT JOIN ${t('concept')} c ON c.concept_id = NULLIF(x.note_nlp_concept_id, 0)
    WHERE nv.visit_id IS NOT NULL`;
  const ctes = [icd10MappedCte(t), ...(tables.note ? [noteVisitCte(t)] : [])];
  return `WITH ${ctes.join(',\n  ')}
    SELECT v.visit_occurrence_id AS visit_id, 0 AS part, NULL::bigint AS row_id, v.visit_start_date::text AS start_date,
      p.person_id, p.year_of_birth, p.month_of_birth, p.day_of_birth, p.gender_concept_id,
      ${noConcept}, NULL::integer AS raw_concept_id,
      NULL::text AS source_value, ${noValue}, NULL::integer AS primary_rank, NULL::text AS icd10, ${noNote}
    FROM ${t('visit_occurrence')} v LEFT JOIN ${t('person')} p ON p.person_id = v.person_id
    UNION ALL ${condition(1, 'co', `JOIN ${t('condition_occurrence')} co ON co.visit_occurrence_id = v.visit_occurrence_id`)}
    UNION ALL ${condition(2, 'h', `JOIN ${t('condition_occurrence')} h ON h.person_id = v.person_id AND h.condition_start_date < v.visit_start_date
      AND h.visit_occurrence_id IS DISTINCT FROM v.visit_occurrence_id`)}
    UNION ALL ${event(3, 'measurement')}
    UNION ALL ${event(4, 'observation')}${tables.note ? `
    UNION ALL ${note}` : ''}${tables.note && tables.noteNlp ? `
    UNION ALL ${noteNlp}` : ''}
    ORDER BY visit_id, part, note_order, row_id`;
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

/**
 * Facts that name no visit: they cannot join a record, so they are counted and reported. With
 * the note tables: notes without a visit_occurrence_id and no visit of their person on their
 * date, and the note_nlp rows of those notes or of no note at all.
 */
export function factsWithoutVisitSql(schema: string, tables: NoteTables = NO_NOTE_TABLES): string {
  const t = tableOf(schema);
  const unattached = (n: string) => `${n}.visit_occurrence_id IS NULL AND NOT EXISTS (SELECT 1 FROM ${t('visit_occurrence')} v
        WHERE v.person_id = ${n}.person_id AND ${n}.note_date::date BETWEEN v.visit_start_date AND COALESCE(v.visit_end_date, v.visit_start_date))`;
  const note = tables.note ? `,
      (SELECT count(*) FROM ${t('note')} n WHERE ${unattached('n')})::int AS note` : `, 0 AS note`;
  const noteNlp = tables.note && tables.noteNlp ? `,
      (SELECT count(*) FROM ${t('note_nlp')} x LEFT JOIN ${t('note')} n ON n.note_id = x.note_id WHERE n.note_id IS NULL OR (${unattached('n')}))::int AS note_nlp`
    : `, 0 AS note_nlp`;
  return `SELECT
      (SELECT count(*) FROM ${t('measurement')} WHERE visit_occurrence_id IS NULL)::int AS measurement,
      (SELECT count(*) FROM ${t('observation')} WHERE visit_occurrence_id IS NULL)::int AS observation${note}${noteNlp}`;
}

/**
 * The concepts a note may name as the CDM codes them (issue 24): every concept of an observation
 * or a condition of the schema (measurements are binned values, not something a note names),
 * with its name and, when the schema has `concept_synonym`, its synonyms. $1 = the schema.
 */
export function codedConceptsSql(schema: string, withSynonyms: boolean): string {
  const t = tableOf(schema);
  const synonyms = withSynonyms
    ? `COALESCE((SELECT array_agg(DISTINCT s.concept_synonym_name) FROM ${t('concept_synonym')} s WHERE s.concept_id = c.concept_id), '{}')`
    : `'{}'::text[]`;
  return `SELECT c.vocabulary_id, c.concept_code, c.concept_name, ${synonyms} AS synonyms
    FROM ${t('concept')} c
    WHERE c.concept_id IN (SELECT observation_concept_id FROM ${t('observation')} UNION SELECT condition_concept_id FROM ${t('condition_occurrence')})
      AND c.concept_id <> 0
    ORDER BY c.vocabulary_id, c.concept_code`;
}

/**
 * The numeric codes of the schema's visits (measurements and observations with a number): whether
 * some values carry a reference range, and the unit most of those without one are in, as the visit
 * query spells it. Their bins are concepts a note's measured value is read into (binning/bin-concepts.ts).
 */
export function numericCodesSql(schema: string): string {
  const t = tableOf(schema);
  const values = (table: 'measurement' | 'observation') => `
      SELECT e.${table}_concept_id AS cid, ${table === 'measurement' ? '(e.range_low IS NOT NULL OR e.range_high IS NOT NULL)' : 'false'} AS ranged,
        COALESCE(u.concept_code, e.unit_source_value) AS unit
      FROM ${t(table)} e LEFT JOIN ${t('concept')} u ON u.concept_id = NULLIF(e.unit_concept_id, 0)
      WHERE e.value_as_number IS NOT NULL AND e.visit_occurrence_id IS NOT NULL`;
  return `
    SELECT c.vocabulary_id, c.concept_code, c.concept_name, bool_or(x.ranged) AS ranged,
      mode() WITHIN GROUP (ORDER BY x.unit) FILTER (WHERE NOT x.ranged) AS unit
    FROM (${values('measurement')}
      UNION ALL ${values('observation')}
    ) x JOIN ${t('concept')} c ON c.concept_id = x.cid AND c.concept_id <> 0
    GROUP BY c.vocabulary_id, c.concept_code, c.concept_name
    ORDER BY c.vocabulary_id, c.concept_code`;
}

/** $1 = the schema: does it have `concept_synonym`? */
export const synonymTableSql = `SELECT to_regclass(format('%I.%I', $1::text, 'concept_synonym')) IS NOT NULL AS present`;
