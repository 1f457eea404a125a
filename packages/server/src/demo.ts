import type { Services } from './services.js';
import { loadVocabularySamples } from './modules/vocabularies/indexed/import/samples.js';
import type { User } from './modules/users/users.service.js';

export const DEMO_USERS = [
  { email: 'ada@cairn.example', name: 'Ada Lovelace', password: 'cairn-demo-ada', isAdmin: true },
  {
    email: 'grace@cairn.example',
    name: 'Grace Hopper',
    password: 'cairn-demo-grace',
    isAdmin: false,
  },
] as const;

/**
 * Loads the demo data: two users with known passwords and a published record. Idempotent: what
 * exists already is left alone, so running it twice changes nothing.
 */
export async function loadDemo(services: Services): Promise<{ created: string[] }> {
  const created: string[] = [];
  const ids: Record<string, number> = {};
  for (const u of DEMO_USERS) {
    const existing = await services.users.findByEmail(u.email);
    if (existing) {
      ids[u.email] = existing.id;
      continue;
    }
    const user = await services.users.createUser({
      email: u.email,
      password: u.password,
      name: u.name,
      isAdmin: u.isAdmin,
    });
    ids[u.email] = user.id;
    created.push(`user ${u.email}`);
  }
  for (const type of await loadVocabularySamples(services.vocabularyItems)) {
    created.push(`sample ${type}`);
  }
  const ada = await services.users.findById(ids[DEMO_USERS[0].email]!);
  if (!ada) return { created };
  const mine = await services.search.userRecords(ada, { q: 'Glacier meltwater' });
  if (mine.total === 0) {
    const draft = await services.drafts.createDraft(ada, {
      metadata: {
        title: 'Glacier meltwater chemistry, Vatnajökull 2019–2023',
        resource_type: { id: 'dataset' },
        publication_date: '2024-03-18',
        publisher: 'Cairn',
        description:
          '<p>Major-ion and stable-isotope measurements of meltwater sampled weekly at three outlet glaciers of Vatnajökull, Iceland, during the melt seasons 2019 to 2023.</p>',
        creators: [
          {
            person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' },
            affiliations: [{ name: 'Cairn Institute' }],
          },
          {
            person_or_org: {
              type: 'personal',
              family_name: 'Hopper',
              given_name: 'Grace',
              identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
            },
          },
          { person_or_org: { type: 'organizational', name: 'Icelandic Meteorological Office' } },
        ],
        languages: [{ id: 'eng' }],
        rights: [{ id: 'cc-by-4.0' }],
        subjects: [{ subject: 'glaciology' }, { subject: 'hydrochemistry' }],
        version: '1.0',
      },
      access: { record: 'public', files: 'public' },
      files: { enabled: false },
    });
    await services.publishing.publish(ada, draft.row.id);
    created.push(`record ${draft.row.id}`);
  }
  created.push(...(await loadDemoCommunities(services, ada, ids[DEMO_USERS[1].email]!)));
  return { created };
}

const DEMO_COMMUNITIES = [
  {
    slug: 'glaciology',
    title: 'Glaciology Working Group',
    description: 'Field data on glaciers and ice sheets, reviewed by the working group.',
    type: 'project',
    access: { visibility: 'public', review_policy: 'closed' },
    theme: true,
    grace: 'reader',
  },
  {
    slug: 'open-science',
    title: 'Open Science Commons',
    description: 'Anyone may submit; curators publish directly.',
    type: 'topic',
    access: { visibility: 'public', review_policy: 'open' },
    theme: false,
    grace: 'curator',
  },
  {
    slug: 'polar-station',
    title: 'Polar Station Archive',
    description: 'Restricted: members only, records are restricted too.',
    type: 'organization',
    access: {
      visibility: 'restricted',
      record_submission_policy: 'closed',
      review_policy: 'members',
    },
    theme: false,
    grace: undefined,
  },
] as const;

/** Three communities with different policies, owned by the admin, Grace a member of two. */
async function loadDemoCommunities(
  services: Services,
  ada: User,
  graceId: number,
): Promise<string[]> {
  const created: string[] = [];
  for (const c of DEMO_COMMUNITIES) {
    if (await services.communities.find(c.slug)) continue;
    const community = await services.communities.create(ada, {
      slug: c.slug,
      metadata: { title: c.title, description: c.description, type: { id: c.type } },
      access: c.access,
      theme: { enabled: c.theme },
    });
    if (c.grace)
      await services.communities.members.addMemberAsSystem(community.row.id, graceId, c.grace);
    created.push(`community ${c.slug}`);
  }
  return created;
}
