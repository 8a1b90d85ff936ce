/** A person a business asks to join its staff, as sign-up's invite_staff and invite_staff_member take them. */
import { z } from 'zod';
import { isEmailAddress } from '../core/index.js';

/** A person invited to the staff: how to reach them, their role, title and resources (also invite_staff_member's). */
export const PersonShape = {
  email: z
    .string()
    .trim()
    .max(254)
    .refine(isEmailAddress, 'expected an email address')
    .optional()
    .meta({ example: 'thandi@example.com' }),
  phone: z
    .string()
    .trim()
    .max(30)
    .regex(/^\+?[\d\s().-]+$/, 'expected a phone number: digits, spaces, ( ) . - and a leading +')
    .refine((p) => p.replace(/\D/g, '').length >= 6, 'expected a phone number of at least 6 digits')
    .optional()
    .meta({ description: 'With its country code outside South Africa.' }),
  role: z.enum(['manager', 'crew']).meta({
    description: 'manager: services, resources and manual bookings; crew: sees and works bookings.',
  }),
  jobTitle: z.string().trim().min(1).max(80).optional().meta({ example: 'Groomer' }),
  resourceIds: z
    .array(z.string().min(1).max(128))
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, 'each resource once')
    .optional()
    .meta({ description: 'The resources they work (ids from add_resources).' }),
};
