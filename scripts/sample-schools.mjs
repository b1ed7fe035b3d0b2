/**
 * Sample verified schools for the local site (`npm start`, `npm run dev`, the end-to-end tests), so
 * that every flow works offline: a parent picks a known school, a page counts its letters, a
 * digest gathers them. Fictional schools on `.example` domains (reserved: no real mailbox), written
 * once into the local database (ON CONFLICT DO NOTHING); never part of a migration, so a deployed
 * site has none. Their page keys are fixed so local links stay put.
 */
import { createHash } from 'node:crypto';

const weekdays = { days: [1, 2, 3, 4, 5], opens: '08:00', closes: '16:00' };

export const sampleSchools = [
  {
    id: 'sample-oakwood-academy',
    name: 'Oakwood Academy',
    city: 'Springfield',
    timeZone: 'America/New_York',
    hours: weekdays,
    leaders: [
      { name: 'Dr. Maya Patel', role: 'Head of School', address: 'head@oakwood-academy.example' },
      { name: 'Tom Reyes', role: 'Academic Dean', address: 'dean@oakwood-academy.example' },
    ],
  },
  {
    id: 'sample-pine-ridge-school',
    name: 'Pine Ridge School',
    city: 'Boulder',
    timeZone: 'America/Denver',
    hours: weekdays,
    leaders: [{ name: 'Laura Chen', role: 'Principal', address: 'principal@pineridge.example' }],
  },
  {
    id: 'sample-willow-creek-academy',
    name: 'Willow Creek Academy',
    city: 'Austin',
    timeZone: 'America/Chicago',
    hours: weekdays,
    leaders: [{ name: 'Dr. James Okafor', role: 'Head of School', address: 'head@willowcreek.example' }],
  },
  {
    id: 'sample-lakeside-preparatory',
    name: 'Lakeside Preparatory School',
    city: 'Seattle',
    timeZone: 'America/Los_Angeles',
    hours: weekdays,
    leaders: [{ name: 'Anne Larsen', role: 'Head of School', address: 'office@lakesideprep.example' }],
  },
  {
    id: 'sample-st-brendans-school',
    name: "St. Brendan's School",
    city: 'Boston',
    timeZone: 'America/New_York',
    hours: weekdays,
    leaders: [{ name: 'Mary Walsh', role: 'Principal', address: 'principal@stbrendans.example' }],
  },
  {
    id: 'sample-cedar-hill-montessori',
    name: 'Cedar Hill Montessori',
    city: 'Miami',
    timeZone: 'America/New_York',
    hours: { days: [1, 2, 3, 4, 5], opens: '07:30', closes: '15:30' },
    leaders: [{ name: 'Rosa Alvarez', role: 'Director', address: 'director@cedarhill.example' }],
  },
];

const fold = (text) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** The readable part of a school page's path, as the site makes it (slugOf, src/lib/shared/school-record.ts). */
export const slug = (text) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
export const samplePageKey = (id) => createHash('sha256').update(`sample:${id}`).digest('hex').slice(0, 32);

/** Writes the sample schools (and their addresses to the directory) unless they are there. */
export async function seedSampleSchools(db) {
  for (const school of sampleSchools) {
    const now = new Date().toISOString();
    await db.query(
      `INSERT INTO schools (id, name, slug, city, status, source, page_key, leaders, email_domains, time_zone, hours, evidence, search, created_at, updated_at, verified_at, verified_by)
       VALUES ($1, $2, $3, $4, 'verified', 'staff', $5, $6::jsonb, $7::text[], $8, $9::jsonb, $10::jsonb, $11, $12, $12, $12, 'sample data')
       ON CONFLICT (id) DO NOTHING`,
      [
        school.id,
        school.name,
        slug(school.name),
        school.city,
        samplePageKey(school.id),
        JSON.stringify(school.leaders),
        [...new Set(school.leaders.map((leader) => leader.address.split('@')[1]))],
        school.timeZone,
        JSON.stringify(school.hours),
        JSON.stringify({ kind: 'note', detail: 'A sample school of the local site (fictional; its domain is reserved and reaches nobody).' }),
        ` ${fold(school.name)} ${fold(school.city)}`,
        now,
      ],
    );
    for (const leader of school.leaders) {
      await db.query(`INSERT INTO school_addresses (address, school_id) VALUES ($1, $2) ON CONFLICT (address) DO NOTHING`, [leader.address, school.id]);
    }
  }
}
