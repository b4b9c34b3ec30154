#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder's image (Ubuntu): perflab's
# re-grade needs Node 18 or newer, which Ubuntu's own nodejs package is not on every image,
# so Node 20 comes from NodeSource's apt repository. Nothing else is installed: the grader
# (the wasm build), its JavaScript and the course file are in /autograder/source.
set -euo pipefail
apt-get update
apt-get install -y ca-certificates curl gnupg
curl -fsSL https://deb.nodesource.com/setup_20.x | bash -
apt-get install -y nodejs
node --version
