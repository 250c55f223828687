-- Loads the synthetic OMOP set into schema cdm of the current database (psql, from this directory):
--   createdb omop_synthetic && psql -d omop_synthetic -v ON_ERROR_STOP=1 -f load.sql
CREATE SCHEMA IF NOT EXISTS cdm;
SET search_path TO cdm;
\i ddl/omop-cdm-5.4-subset.postgresql.sql
\copy person FROM 'data/person.csv' WITH (FORMAT csv, HEADER true)
\copy visit_occurrence FROM 'data/visit_occurrence.csv' WITH (FORMAT csv, HEADER true)
\copy condition_occurrence FROM 'data/condition_occurrence.csv' WITH (FORMAT csv, HEADER true)
\copy measurement FROM 'data/measurement.csv' WITH (FORMAT csv, HEADER true)
\copy observation FROM 'data/observation.csv' WITH (FORMAT csv, HEADER true)
\copy concept FROM 'data/concept.csv' WITH (FORMAT csv, HEADER true)
\copy concept_relationship FROM 'data/concept_relationship.csv' WITH (FORMAT csv, HEADER true)
\copy note FROM 'data/note.csv' WITH (FORMAT csv, HEADER true)
\copy note_nlp FROM 'data/note_nlp.csv' WITH (FORMAT csv, HEADER true)
