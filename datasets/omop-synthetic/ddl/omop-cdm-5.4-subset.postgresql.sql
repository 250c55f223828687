-- OMOP Common Data Model v5.4: the tables dxgraph's OMOP source reads (person,
-- visit_occurrence, condition_occurrence, measurement, observation, note, note_nlp) and the
-- vocabulary tables it joins (concept, concept_relationship), for PostgreSQL.
--
-- Column names, types and nullability follow the OHDSI CDM v5.4 specification and its
-- PostgreSQL DDL (OHDSI CommonDataModel, inst/ddl/5.4/postgresql/OMOPCDM_postgresql_5.4_ddl.sql,
-- https://github.com/OHDSI/CommonDataModel, Apache License 2.0); only these nine tables are
-- given here. Unqualified names: run with the target schema first on the search_path
-- (see ../load.sql). Primary keys as in the CDM's primary-key script; foreign keys are left
-- out on purpose: the synthetic set holds a visit whose person is missing, which the source
-- must report.

CREATE TABLE person (
  person_id integer NOT NULL PRIMARY KEY,
  gender_concept_id integer NOT NULL,
  year_of_birth integer NOT NULL,
  month_of_birth integer NULL,
  day_of_birth integer NULL,
  birth_datetime timestamp NULL,
  race_concept_id integer NOT NULL,
  ethnicity_concept_id integer NOT NULL,
  location_id integer NULL,
  provider_id integer NULL,
  care_site_id integer NULL,
  person_source_value varchar(50) NULL,
  gender_source_value varchar(50) NULL,
  gender_source_concept_id integer NULL,
  race_source_value varchar(50) NULL,
  race_source_concept_id integer NULL,
  ethnicity_source_value varchar(50) NULL,
  ethnicity_source_concept_id integer NULL
);

CREATE TABLE visit_occurrence (
  visit_occurrence_id integer NOT NULL PRIMARY KEY,
  person_id integer NOT NULL,
  visit_concept_id integer NOT NULL,
  visit_start_date date NOT NULL,
  visit_start_datetime timestamp NULL,
  visit_end_date date NOT NULL,
  visit_end_datetime timestamp NULL,
  visit_type_concept_id integer NOT NULL,
  provider_id integer NULL,
  care_site_id integer NULL,
  visit_source_value varchar(50) NULL,
  visit_source_concept_id integer NULL,
  admitted_from_concept_id integer NULL,
  admitted_from_source_value varchar(50) NULL,
  discharged_to_concept_id integer NULL,
  discharged_to_source_value varchar(50) NULL,
  preceding_visit_occurrence_id integer NULL
);

CREATE TABLE condition_occurrence (
  condition_occurrence_id integer NOT NULL PRIMARY KEY,
  person_id integer NOT NULL,
  condition_concept_id integer NOT NULL,
  condition_start_date date NOT NULL,
  condition_start_datetime timestamp NULL,
  condition_end_date date NULL,
  condition_end_datetime timestamp NULL,
  condition_type_concept_id integer NOT NULL,
  condition_status_concept_id integer NULL,
  stop_reason varchar(20) NULL,
  provider_id integer NULL,
  visit_occurrence_id integer NULL,
  visit_detail_id integer NULL,
  condition_source_value varchar(50) NULL,
  condition_source_concept_id integer NULL,
  condition_status_source_value varchar(50) NULL
);

CREATE TABLE measurement (
  measurement_id integer NOT NULL PRIMARY KEY,
  person_id integer NOT NULL,
  measurement_concept_id integer NOT NULL,
  measurement_date date NOT NULL,
  measurement_datetime timestamp NULL,
  measurement_time varchar(10) NULL,
  measurement_type_concept_id integer NOT NULL,
  operator_concept_id integer NULL,
  value_as_number numeric NULL,
  value_as_concept_id integer NULL,
  unit_concept_id integer NULL,
  range_low numeric NULL,
  range_high numeric NULL,
  provider_id integer NULL,
  visit_occurrence_id integer NULL,
  visit_detail_id integer NULL,
  measurement_source_value varchar(50) NULL,
  measurement_source_concept_id integer NULL,
  unit_source_value varchar(50) NULL,
  unit_source_concept_id integer NULL,
  value_source_value varchar(50) NULL,
  measurement_event_id integer NULL,
  meas_event_field_concept_id integer NULL
);

CREATE TABLE observation (
  observation_id integer NOT NULL PRIMARY KEY,
  person_id integer NOT NULL,
  observation_concept_id integer NOT NULL,
  observation_date date NOT NULL,
  observation_datetime timestamp NULL,
  observation_type_concept_id integer NOT NULL,
  value_as_number numeric NULL,
  value_as_string varchar(60) NULL,
  value_as_concept_id integer NULL,
  qualifier_concept_id integer NULL,
  unit_concept_id integer NULL,
  provider_id integer NULL,
  visit_occurrence_id integer NULL,
  visit_detail_id integer NULL,
  observation_source_value varchar(50) NULL,
  observation_source_concept_id integer NULL,
  unit_source_value varchar(50) NULL,
  qualifier_source_value varchar(50) NULL,
  value_source_value varchar(50) NULL,
  observation_event_id integer NULL,
  obs_event_field_concept_id integer NULL
);

CREATE TABLE concept (
  concept_id integer NOT NULL PRIMARY KEY,
  concept_name varchar(255) NOT NULL,
  domain_id varchar(20) NOT NULL,
  vocabulary_id varchar(20) NOT NULL,
  concept_class_id varchar(20) NOT NULL,
  standard_concept varchar(1) NULL,
  concept_code varchar(50) NOT NULL,
  valid_start_date date NOT NULL,
  valid_end_date date NOT NULL,
  invalid_reason varchar(1) NULL
);

CREATE TABLE concept_relationship (
  concept_id_1 integer NOT NULL,
  concept_id_2 integer NOT NULL,
  relationship_id varchar(20) NOT NULL,
  valid_start_date date NOT NULL,
  valid_end_date date NOT NULL,
  invalid_reason varchar(1) NULL
);

-- Indexes the OMOP source's visit query uses (the CDM's own index script has these and more).
CREATE INDEX idx_visit_person_id ON visit_occurrence (person_id);
CREATE INDEX idx_condition_visit_id ON condition_occurrence (visit_occurrence_id);
CREATE INDEX idx_condition_person_id ON condition_occurrence (person_id);
CREATE INDEX idx_measurement_visit_id ON measurement (visit_occurrence_id);
CREATE INDEX idx_observation_visit_id ON observation (visit_occurrence_id);
CREATE INDEX idx_concept_relationship_id_2 ON concept_relationship (concept_id_2);

CREATE TABLE note (
  note_id integer NOT NULL PRIMARY KEY,
  person_id integer NOT NULL,
  note_date date NOT NULL,
  note_datetime timestamp NULL,
  note_type_concept_id integer NOT NULL,
  note_class_concept_id integer NOT NULL,
  note_title varchar(250) NULL,
  note_text text NOT NULL,
  encoding_concept_id integer NOT NULL,
  language_concept_id integer NOT NULL,
  provider_id integer NULL,
  visit_occurrence_id integer NULL,
  visit_detail_id integer NULL,
  note_source_value varchar(50) NULL,
  note_event_id bigint NULL,
  note_event_field_concept_id integer NULL
);

CREATE TABLE note_nlp (
  note_nlp_id integer NOT NULL PRIMARY KEY,
  note_id integer NOT NULL,
  section_concept_id integer NULL,
  snippet varchar(250) NULL,
  "offset" varchar(50) NULL,
  lexical_variant varchar(250) NOT NULL,
  note_nlp_concept_id integer NULL,
  note_nlp_source_concept_id integer NULL,
  nlp_system varchar(250) NULL,
  nlp_date date NOT NULL,
  nlp_datetime timestamp NULL,
  term_exists varchar(1) NULL,
  term_temporal varchar(50) NULL,
  term_modifiers varchar(2000) NULL
);
