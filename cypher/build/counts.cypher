// Counts per tier and relationship type, for the build report and the idempotency check.
CALL { MATCH (n:Category) RETURN count(n) AS categories }
CALL { MATCH (n:Subcategory) RETURN count(n) AS subcategories }
CALL { MATCH (n:Disease) RETURN count(n) AS diseases }
CALL { MATCH (n:DiseaseAlias) RETURN count(n) AS aliases }
CALL { MATCH (n:Feature) RETURN count(n) AS features }
CALL { MATCH (n:EhrFeature) RETURN count(n) AS ehrFeatures }
CALL { MATCH (n:AugmentedFeature) RETURN count(n) AS augmentedFeatures }
CALL { MATCH (n:KeyDifference) RETURN count(n) AS keyDifferences }
CALL { MATCH (n:Record) RETURN count(n) AS records }
CALL { MATCH ()-[r:IS_A]->() RETURN count(r) AS isA }
CALL { MATCH ()-[r:HAS_MANIFESTATION]->() RETURN count(r) AS manifestations }
CALL { MATCH ()-[r:NOTES_MENTION]->() RETURN count(r) AS notesMentions }
CALL { MATCH ()-[r:HAS_KEY_DIFFERENCE]->() RETURN count(r) AS hasKeyDifference }
CALL { MATCH ()-[r:CONTRASTS_WITH]->() RETURN count(r) AS contrastsWith }
CALL { MATCH ()-[r:ABOUT]->() RETURN count(r) AS about }
CALL { MATCH ()-[r:ALIAS_OF]->() RETURN count(r) AS aliasOf }
CALL { MATCH ()-[r:HAS_FEATURE]->() RETURN count(r) AS hasFeature }
CALL { MATCH ()-[r:DIAGNOSED_AS]->() RETURN count(r) AS diagnosedAs }
RETURN categories, subcategories, diseases, aliases, features, ehrFeatures, augmentedFeatures, keyDifferences, records,
       isA, manifestations, notesMentions, hasKeyDifference, contrastsWith, about, aliasOf, hasFeature, diagnosedAs
