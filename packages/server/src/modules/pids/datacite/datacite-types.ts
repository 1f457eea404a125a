// The two shapes the DataCite serializer maps between: a published record as the records API
// returns it (only the fields DataCite uses), and the attributes of a DOI in DataCite's REST API.

/** A vocabulary reference as records carry it: `{id}` on input, expanded with title/props on output. */
export interface VocabularyRef {
  id?: string;
  title?: Record<string, string>;
  props?: Record<string, string>;
}

/** `{scheme, identifier}`, as in creators' identifiers and `metadata.identifiers`. */
export interface SchemedIdentifier {
  scheme?: string;
  identifier: string;
}

/** One creator or contributor of a record. */
export interface RecordCreator {
  person_or_org: {
    type?: string;
    name?: string;
    given_name?: string;
    family_name?: string;
    identifiers?: SchemedIdentifier[];
  };
  affiliations?: Array<{ id?: string; name?: string }>;
  role?: VocabularyRef;
}

/** A persistent identifier in `pids` (`{doi: {identifier, provider, client}}`). */
export interface RecordPid {
  identifier: string;
  provider?: string;
  client?: string;
}

/** A published record as the records API returns it; only the fields DataCite uses are typed. */
export interface RecordForDataCite {
  id: string;
  metadata: {
    title: string;
    creators: RecordCreator[];
    publication_date: string;
    resource_type: VocabularyRef;
    publisher?: string;
    description?: string;
    additional_titles?: Array<{ title: string; type?: VocabularyRef; lang?: VocabularyRef }>;
    additional_descriptions?: Array<{
      description: string;
      type?: VocabularyRef;
      lang?: VocabularyRef;
    }>;
    subjects?: Array<{ id?: string; subject?: string; scheme?: string }>;
    contributors?: RecordCreator[];
    dates?: Array<{ date: string; type?: VocabularyRef; description?: string }>;
    languages?: VocabularyRef[];
    identifiers?: SchemedIdentifier[];
    related_identifiers?: Array<{
      identifier: string;
      scheme?: string;
      relation_type?: VocabularyRef;
      resource_type?: VocabularyRef;
    }>;
    rights?: Array<{
      id?: string;
      title?: Record<string, string>;
      description?: Record<string, string>;
      link?: string;
      props?: Record<string, string>;
    }>;
    funding?: Array<{
      funder?: { id?: string; name?: string };
      award?: {
        id?: string;
        number?: string;
        title?: Record<string, string>;
        identifiers?: SchemedIdentifier[];
      };
    }>;
    version?: string;
    sizes?: string[];
    formats?: string[];
    locations?: {
      features?: Array<{ geometry?: Record<string, unknown>; place?: string }>;
    };
  };
  pids?: Record<string, RecordPid>;
  parent?: { id?: string; pids?: Record<string, RecordPid> };
}

/** A creator's or contributor's identifier (ORCID, ROR, ISNI, GND…). */
export interface DataCiteNameIdentifier {
  nameIdentifier: string;
  nameIdentifierScheme: string;
  schemeUri?: string;
}

/** An affiliation; the identifier is set for ROR-backed affiliations only. */
export interface DataCiteAffiliation {
  name: string;
  affiliationIdentifier?: string;
  affiliationIdentifierScheme?: string;
  schemeUri?: string;
}

/** A DataCite creator. */
export interface DataCiteCreator {
  name: string;
  nameType?: 'Personal' | 'Organizational';
  givenName?: string;
  familyName?: string;
  nameIdentifiers?: DataCiteNameIdentifier[];
  affiliation?: DataCiteAffiliation[];
}

/** A DataCite contributor: a creator with a contributorType. */
export interface DataCiteContributor extends DataCiteCreator {
  contributorType: string;
}

/** A place the resource is about: a name, a point, or both. */
export interface DataCiteGeoLocation {
  geoLocationPlace?: string;
  geoLocationPoint?: { pointLongitude: number; pointLatitude: number };
}

/** The metadata attributes of a DataCite DOI, without `doi`, `url` and `event` (the client adds those). */
export interface DataCiteAttributes {
  titles: Array<{ title: string; titleType?: string; lang?: string }>;
  creators: DataCiteCreator[];
  publisher: string;
  publicationYear: string;
  types: { resourceTypeGeneral: string; resourceType?: string };
  descriptions?: Array<{ description: string; descriptionType: string; lang?: string }>;
  subjects?: Array<{ subject: string; subjectScheme?: string; valueUri?: string }>;
  contributors?: DataCiteContributor[];
  dates?: Array<{ date: string; dateType: string; dateInformation?: string }>;
  language?: string;
  alternateIdentifiers?: Array<{ alternateIdentifier: string; alternateIdentifierType: string }>;
  relatedIdentifiers?: Array<{
    relatedIdentifier: string;
    relatedIdentifierType: string;
    relationType: string;
    resourceTypeGeneral?: string;
  }>;
  rightsList?: Array<{
    rights: string;
    rightsUri?: string;
    rightsIdentifier?: string;
    rightsIdentifierScheme?: string;
    schemeUri?: string;
  }>;
  fundingReferences?: Array<{
    funderName: string;
    funderIdentifier?: string;
    funderIdentifierType?: string;
    awardNumber?: string;
    awardUri?: string;
    awardTitle?: string;
  }>;
  version?: string;
  sizes?: string[];
  formats?: string[];
  geoLocations?: DataCiteGeoLocation[];
  schemaVersion: 'http://datacite.org/schema/kernel-4';
}
