// Writes docker/<app>/Dockerfile for each app from docker/Dockerfile.template, so every app has its own
// Dockerfile while the build recipe exists once. `--check` fails when a committed file has drifted.
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const apps = ['gateway', 'calendar', 'public-status', 'lending', 'verification', 'outbox-relay'];
const template = fs.readFileSync(path.join(root, 'docker/Dockerfile.template'), 'utf8');
const ignore = fs.readFileSync(path.join(root, 'docker/.dockerignore.template'), 'utf8');
const check = process.argv.includes('--check');
let drift = 0;

for (const app of apps) {
  const files = {
    Dockerfile: template
      .replaceAll('{{APP}}', app)
      .replace(
        '{{GENERATED}}',
        'Generated from docker/Dockerfile.template by scripts/gen-dockerfiles.js; edit the template.',
      ),
    'Dockerfile.dockerignore': ignore,
  };
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, 'docker', app, name);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (current === content) continue;
    if (check) {
      process.stderr.write(
        `${path.relative(root, file)} is out of date: run node scripts/gen-dockerfiles.js\n`,
      );
      drift = 1;
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
}
process.exit(drift);
