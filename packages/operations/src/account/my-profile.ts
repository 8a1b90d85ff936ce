import { countOwned, findUserById } from '@nogpets/store';
import { z } from 'zod';
import { defineOperation, READ_ONLY, ServiceError } from '../core/index.js';

export const ProfileSchema = z
  .object({
    uid: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    pets: z.int().meta({ description: 'How many pets are saved.' }),
    addresses: z.int().meta({ description: 'How many addresses are saved.' }),
    client: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .meta({ description: 'The connected assistant; null for a personal API key.' }),
    scopes: z.array(z.string()).meta({ description: 'What this connection may do.' }),
  })
  .meta({
    id: 'Profile',
    description: 'The signed-in person, what they have saved, and what this connection may do.',
  });

export const myProfile = defineOperation({
  operationId: 'myProfile',
  toolName: 'my_profile',
  title: 'Who am I',
  tag: 'Account',
  mcp: 'person',
  method: 'GET',
  path: '/v1/me',
  inputIn: 'query',
  auth: { scope: 'profile' },
  description:
    'Who the person is: their name, email and phone, how many pets and addresses they have saved, which assistant ' +
    'this connection is, and what it may do (`scopes`). Use it at the start of a signed-in conversation, to greet the ' +
    'person by name, or before a change to check that `scopes` allows it (otherwise ask them to connect again with ' +
    'more). Show the name and the counts; an email or phone only when the person asks or it is needed to confirm who ' +
    'they are. When `pets` or `addresses` is above 0, list_pets and list_addresses give them.',
  input: z.object({}).strict(),
  output: ProfileSchema,
  successStatus: 200,
  errors: [{ status: 429, description: 'Too many requests.' }],
  annotations: READ_ONLY,
  async handler(ctx) {
    const auth = ctx.auth!;
    const user = await findUserById(ctx.deps.sql, auth.userId);
    if (!user)
      throw new ServiceError('UNAUTHORIZED', 'The credential belongs to no one any more.', {
        error: 'invalid_token',
      });
    const counts = await countOwned(ctx.deps.sql, user.id);
    return {
      uid: user.id,
      name: user.name,
      email: user.email,
      phone: user.phone,
      ...counts,
      client: auth.clientId ? { id: auth.clientId, name: auth.clientName ?? auth.clientId } : null,
      scopes: auth.scopes,
    };
  },
});
