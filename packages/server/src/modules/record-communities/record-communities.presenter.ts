import type { ParentCommunitiesSchema } from '@cairn/shared';
import type { z } from 'zod';
import { readJson } from '../../database/schema.js';
import type { ParentData, ParentRow } from '../records/records.rows.js';

/** The parent as `PUT /api/records/{id}/communities` answers it: clients read `communities.default`. */
export function presentParentCommunities(
  parent: ParentRow,
): z.input<typeof ParentCommunitiesSchema> {
  const data = readJson<ParentData>(parent.data);
  return { id: parent.id, access: data.access, communities: data.communities, pids: data.pids };
}
