import { publicEnv } from './env';

/** Names, addresses and links of the organisation. Components read them from here only. */
export const site = {
  name: 'Mastery Parents',
  legalName: 'Mastery Parents Movement',
  tagline: 'Parents bringing mastery-based, AI-assisted learning to their schools',
  url: publicEnv.siteUrl,
  logo: '/logo.svg',
  socialImage: '/social-card.png',
  email: 'hello@masteryparents.org',
  stagingMarker: publicEnv.stagingMarker,
  ambassador: {
    host: publicEnv.ambassadorHost,
    registerUrl: `${publicEnv.ambassadorHost}/register`,
    loginUrl: `${publicEnv.ambassadorHost}/login`,
  },
  /** Footer "Connect": two learning-programme sites and a school site. */
  connect: [
    { label: '2 Hour Learning', href: 'https://2hourlearning.com' },
    { label: 'Timeback', href: 'https://timeback.com' },
    { label: 'Alpha School', href: 'https://alpha.school' },
  ],
  socials: [
    { network: 'Instagram', href: 'https://www.instagram.com/masteryparents' },
    { network: 'Facebook', href: 'https://www.facebook.com/masteryparents' },
    { network: 'LinkedIn', href: 'https://www.linkedin.com/company/masteryparents' },
    { network: 'YouTube', href: 'https://www.youtube.com/@masteryparents' },
  ],
} as const;

export type SocialNetwork = (typeof site.socials)[number]['network'];
