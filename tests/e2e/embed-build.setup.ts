import { test as setup } from '@playwright/test';
import { buildEmbedSite } from './embed-build';

setup('build the site with every form embedded (dist-embed/)', async () => {
  setup.setTimeout(180_000);
  await buildEmbedSite();
});
