import { Controller, Get, Module, Post } from '@nestjs/common';
import { Authenticated, Public, defineAccess } from './access.decorators';
import { accessProblems, auditRoutes } from './route-audit';

const Access = defineAccess({ schemes: ['product-key'], scopes: ['things:read', 'things:write'] });

@Controller('open')
class OpenController {
  @Public() @Get('ping') ping() {
    return 'pong';
  }
}

@Controller('things')
@Authenticated('product-key')
class ThingsController {
  @Get() @Access.RequireScopes('things:read') list() {
    return [];
  }

  @Get('mine') @Access.NoScopeRequired("only the caller's own") mine() {
    return [];
  }

  @Post() write() {
    return null;
  }
}

@Controller(['dav', 'caldav'])
@Access.Authenticated('product-key')
@Access.RequireScopes('things:read')
class MountedTwiceController {
  @Get(['', '*path']) any() {
    return null;
  }
}

@Controller('leaky')
class LeakyController {
  @Post('write') write() {
    return null;
  }
}

@Module({ controllers: [LeakyController] })
class LeakyModule {}

@Module({
  imports: [{ module: LeakyModule, controllers: [] }],
  controllers: [OpenController, ThingsController],
})
class RootModule {}

@Module({ controllers: [MountedTwiceController] })
class ArrayPathsModule {}

describe('auditRoutes', () => {
  it('finds routes through static and dynamic imports with their declared access', () => {
    const routes = auditRoutes(RootModule);
    expect(routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'GET', path: '/open/ping', access: 'public' }),
        expect.objectContaining({
          method: 'GET',
          path: '/things',
          access: 'authenticated',
          authorization: { kind: 'all-of', scopes: ['things:read'] },
        }),
        expect.objectContaining({ method: 'POST', path: '/leaky/write', access: 'none' }),
      ]),
    );
    expect(routes).toHaveLength(5);
  });

  it('lists a route mounted at several paths once per path', () => {
    expect(auditRoutes(ArrayPathsModule).map((r) => `${r.method} ${r.path} ${r.access}`)).toEqual([
      'GET /dav authenticated',
      'GET /dav/*path authenticated',
      'GET /caldav authenticated',
      'GET /caldav/*path authenticated',
    ]);
    expect(accessProblems(auditRoutes(ArrayPathsModule))).toEqual([]);
  });

  it('names every route that is not public and lacks an authentication or an authorization rule', () => {
    expect(accessProblems(auditRoutes(RootModule))).toEqual([
      'POST /things (ThingsController.write): authenticated without RequireScopes/RequireAnyScope/NoScopeRequired',
      'POST /leaky/write (LeakyController.write): neither @Public() nor Authenticated()',
    ]);
  });
});
