// tsc emits only JavaScript: copy what the apps read at run time (translations, the alias resolver).
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

function copyDir(from, to) {
  if (!fs.existsSync(from)) return;
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => fs.statSync(src).isDirectory() || src.endsWith('.json'),
  });
}

copyDir(path.join(root, 'libs/i18n/src/locales'), path.join(dist, 'libs/i18n/src/locales'));
for (const app of fs.readdirSync(path.join(root, 'apps'))) {
  copyDir(path.join(root, 'apps', app, 'src/i18n'), path.join(dist, 'apps', app, 'src/i18n'));
}
// The API reference the gateway serves, and the page script it loads.
copyDir(path.join(root, 'docs/openapi'), path.join(dist, 'docs/openapi'));
fs.mkdirSync(path.join(dist, 'apps/gateway/src/docs/assets'), { recursive: true });
fs.copyFileSync(
  path.join(root, 'apps/gateway/src/docs/assets/reference-page.js'),
  path.join(dist, 'apps/gateway/src/docs/assets/reference-page.js'),
);
// The fonts the verification summary PDF embeds (apps/verification/assets/fonts, with their licence).
fs.cpSync(path.join(root, 'apps/verification/assets'), path.join(dist, 'apps/verification/assets'), {
  recursive: true,
});
fs.mkdirSync(path.join(dist, 'scripts'), { recursive: true });
fs.copyFileSync(path.join(root, 'scripts/register-paths.js'), path.join(dist, 'scripts/register-paths.js'));
