// The engine smoke suite (smoke.mjs) in WebKitGTK: Debian's MiniBrowser driven by
// WebKitWebDriver under xvfb-run, over W3C WebDriver HTTP. Whether it isolates the page is
// reported, not required: the header must only say truthfully what the page is.
// Env: PERFLAB_WEBKIT_DRIVER, PERFLAB_MINIBROWSER (Debian's paths by default).

import { describeEngine } from './smoke.mjs';
import { launchWebKit } from './webdriver.mjs';

describeEngine('WebKitGTK', launchWebKit);
