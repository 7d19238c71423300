import { Controller, Get, Module, Post } from '@nestjs/common';
import { Authenticated, Public } from './access.decorators';
import { auditRoutes } from './route-audit';

@Controller('open')
class OpenController {
  @Public() @Get('ping') ping() {
    return 'pong';
  }
}

@Controller('things')
@Authenticated('product-key')
class ThingsController {
  @Get() list() {
    return [];
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

describe('auditRoutes', () => {
  it('finds routes through static and dynamic imports with their declared access', () => {
    const routes = auditRoutes(RootModule);
    expect(routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'GET', path: '/open/ping', access: 'public' }),
        expect.objectContaining({ method: 'GET', path: '/things', access: 'authenticated' }),
        expect.objectContaining({ method: 'POST', path: '/leaky/write', access: 'none' }),
      ]),
    );
    expect(routes).toHaveLength(3);
  });
});
