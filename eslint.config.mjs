import { readdirSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import onePeriodicMechanism from './scripts/eslint/one-periodic-mechanism.js';

// One scope per folder under apps/ (libs/registry's test keeps those folders and its entries in step).
const appScopes = readdirSync(new URL('./apps/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// One definition of length (Unicode code points, as PostgreSQL counts): class-validator's length checks
// count neither code points nor UTF-16 units.
const lengthAndDateRule = {
  name: 'class-validator',
  importNames: ['MaxLength', 'MinLength', 'Length', 'IsISO8601', 'IsDateString'],
  message:
    'Use MaxChars/MinChars, IsInstant or IsCalendarDate from @platform/envelope (one definition of length and of a date).',
};

// One way to the database: controller -> service -> repository. Outside repositories, entities and
// migrations nothing imports the ORM or the driver, and nothing runs SQL on a handle it was given.
const onlyRepositoriesMessage =
  'Only *.repository.ts (and entities, migrations, libs/persistence) touch the database: call a repository from a service.';
const dataAccessRules = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        lengthAndDateRule,
        ...['typeorm', '@nestjs/typeorm', 'pg'].map((name) => ({ name, message: onlyRepositoriesMessage })),
        { name: '@platform/persistence', importNames: ['txManager'], message: onlyRepositoriesMessage },
      ],
    },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector:
        'CallExpression[callee.property.name=/^(query|getRepository|createQueryBuilder|transaction)$/]',
      message: onlyRepositoriesMessage,
    },
  ],
};

const tenantDoorMessage =
  'A repository over tenant rows extends TenantScopedRepository and goes through its methods (raw SQL: this.sql(tenant, text, params, tx), the tenant as $1). A deliberate cross-tenant repository is named *.unscoped.repository.ts and opens with a one-line reason.';

// Feature folders of one app that may not import each other (CONVENTIONS.md, "Not to copy"): in lending
// the loans area is below the applications area, and origination (the contract from an approved
// application) above both. Each entry: the folder, the folders it must not import, why.
const featureLayers = [
  {
    folder: 'apps/lending/src/loans',
    forbidden: ['applications', 'origination'],
    message:
      'loans/ imports nothing of applications/ or origination/: an approved application reaches a loan through origination/ (ApplicationHandover).',
  },
  {
    folder: 'apps/lending/src/applications',
    forbidden: ['origination'],
    message:
      'applications/ does not import origination/: origination/ uses ApplicationHandover, not the reverse.',
  },
];
const layerPatterns = ({ forbidden, message }) =>
  forbidden.map((name) => ({ regex: `(^|/)${name}(/|$)`, message }));
// no-restricted-imports takes the options of the last block that matches a file, so each layer block
// repeats the paths the file would otherwise get (the data-access ones outside repositories).
const dataAccessOnly = ['**/*.repository.ts', '**/*.entity.ts', '**/migrations/**', '**/*.spec.ts'];
const featureLayerBlocks = featureLayers.flatMap((layer) => [
  {
    files: [`${layer.folder}/**/*.ts`],
    ignores: dataAccessOnly,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: dataAccessRules['no-restricted-imports'][1].paths, patterns: layerPatterns(layer) },
      ],
    },
  },
  {
    files: dataAccessOnly.map((glob) => `${layer.folder}/${glob}`),
    rules: {
      'no-restricted-imports': ['error', { paths: [lengthAndDateRule], patterns: layerPatterns(layer) }],
    },
  },
]);

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/node_modules', 'tmp/**', '.nx/**', 'coverage/**', '.local/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      // Boundaries that bite: an app imports only its own scope and shared libs, never another app;
      // a lib never imports an app; contracts import nothing.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          banTransitiveDependencies: false,
          checkDynamicDependenciesExceptions: [],
          depConstraints: [
            ...appScopes.map((s) => ({
              sourceTag: `scope:${s}`,
              onlyDependOnLibsWithTags: [`scope:${s}`, 'scope:shared'],
            })),
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:util', 'type:data-access', 'type:contracts', 'type:testing'],
            },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            {
              sourceTag: 'type:data-access',
              onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:contracts'],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:testing', 'type:util', 'type:data-access', 'type:contracts'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      'no-restricted-imports': ['error', { paths: [lengthAndDateRule] }],
    },
  },
  {
    // One way to repeat work: Periodic / PeriodicJob of libs/scheduling (scripts/check-boundaries.sh
    // plants a setInterval and a polling loop to prove it bites).
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    // The test harness's waits for a process or a broker to come up are not periodic work.
    ignores: ['libs/scheduling/src/**', 'libs/testing/**', 'libs/dev-infra/**', '**/*.spec.ts'],
    plugins: { platform: { rules: { 'one-periodic-mechanism': onePeriodicMechanism } } },
    rules: { 'platform/one-periodic-mechanism': 'error' },
  },
  {
    files: ['apps/*/src/**/*.ts', 'libs/tenancy/src/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.entity.ts', '**/migrations/**', '**/*.spec.ts'],
    rules: dataAccessRules,
  },
  ...featureLayerBlocks,
  {
    // The tenant goes through one door (decision 0032): a repository reaches its rows only through
    // TenantScopedRepository's methods (raw SQL through `sql`, which binds the tenant as $1 and runs as
    // the tenant under row-level security). Deliberate cross-tenant repositories are named
    // `*.unscoped.repository.ts` and open with a one-line reason (scripts/check-boundaries.sh plants a
    // violation and checks the reasons).
    // The apps that hold tenant data (the gateway's leases and the relay's outbox hold none) and libs.
    files: [
      ...['calendar', 'lending', 'public-status', 'verification'].map(
        (app) => `apps/${app}/src/**/*.repository.ts`,
      ),
      'libs/*/src/**/*.repository.ts',
    ],
    ignores: ['**/*.unscoped.repository.ts', 'libs/persistence/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            lengthAndDateRule,
            {
              name: '@platform/persistence',
              importNames: ['txManager', 'queryPrepared', 'inTransaction', 'inTenantTransaction'],
              message: tenantDoorMessage,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.type='ThisExpression'][property.name=/^(ds|dataSource|manager)$/]",
          message: tenantDoorMessage,
        },
        { selector: 'CallExpression[callee.name=/^(txManager|queryPrepared)$/]', message: tenantDoorMessage },
        {
          selector: 'CallExpression[callee.property.name=/^(query|transaction|createQueryRunner)$/]',
          message: tenantDoorMessage,
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      // No focused or skipped tests reach main.
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].flatMap((object) => [
          { object, property: 'only', message: 'Focused tests hide the rest of the suite.' },
          { object, property: 'skip', message: 'Skipped tests are not allowed; fix or delete the test.' },
        ]),
      ],
      'no-restricted-globals': ['error', 'fit', 'fdescribe', 'xit', 'xdescribe', 'xtest'],
    },
  },
  {
    files: ['scripts/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
];
