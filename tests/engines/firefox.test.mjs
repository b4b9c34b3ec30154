// The engine smoke suite (smoke.mjs) in Firefox ESR: Debian's firefox-esr, headless, driven by
// puppeteer-core over WebDriver BiDi. Served with COOP/COEP, the page is cross-origin isolated
// in Firefox. Env: PERFLAB_FIREFOX (default /usr/bin/firefox-esr).

import { describeEngine } from './smoke.mjs';
import { launchFirefox } from './webdriver.mjs';

describeEngine('Firefox ESR', launchFirefox, { isolated: true });
