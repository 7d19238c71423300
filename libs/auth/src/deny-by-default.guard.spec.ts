import 'reflect-metadata';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { CommonError, type DomainError } from '@platform/envelope';
import { Authenticated, Public, defineAccess } from './access.decorators';
import { DenyByDefaultGuard } from './deny-by-default.guard';
import type { Principal } from './principal.decorator';

const Access = defineAccess({ schemes: ['key'], scopes: ['read', 'write'] });

class TestGuard extends DenyByDefaultGuard {
  constructor(
    reflector: Reflector,
    private readonly scopes: string[],
  ) {
    super(reflector);
  }

  protected async authenticate(): Promise<Principal> {
    return { kind: 'test', scopes: this.scopes };
  }
}

class BaseController {
  /** Inherited by both controllers below, which declare different access on the class. */
  shared(): string {
    return 'shared';
  }
}

@Public()
class OpenController extends BaseController {
  open(): string {
    return 'open';
  }
}

@Access.Authenticated('key')
@Access.RequireScopes('read')
class KeyController extends BaseController {
  @Access.RequireScopes('write')
  write(): string {
    return 'write';
  }
}

@Authenticated('key')
class NoRuleController {
  noRule(): string {
    return 'noRule';
  }
}

class UndeclaredController {
  nothing(): string {
    return 'nothing';
  }
}

const contextOf = (cls: new () => object, handler: () => unknown) =>
  new ExecutionContextHost([{ headers: {} }, {}, () => undefined], cls as never, handler);

const reasonOf = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as DomainError).reason;

describe('DenyByDefaultGuard', () => {
  it('lets public routes through and refuses routes that declare nothing', async () => {
    const guard = new TestGuard(new Reflector(), []);
    await expect(guard.canActivate(contextOf(OpenController, OpenController.prototype.open))).resolves.toBe(
      true,
    );
    expect(
      await reasonOf(
        guard.canActivate(contextOf(UndeclaredController, UndeclaredController.prototype.nothing)),
      ),
    ).toBe(CommonError.ROUTE_AUTH_UNDECLARED);
    expect(
      await reasonOf(guard.canActivate(contextOf(NoRuleController, NoRuleController.prototype.noRule))),
    ).toBe(CommonError.ROUTE_SCOPES_UNDECLARED);
  });

  it('checks the scopes of an authenticated route', async () => {
    const write = contextOf(KeyController, KeyController.prototype.write);
    await expect(new TestGuard(new Reflector(), ['write']).canActivate(write)).resolves.toBe(true);
    expect(await reasonOf(new TestGuard(new Reflector(), ['read']).canActivate(write))).toBe(
      CommonError.SCOPE_MISSING,
    );
  });

  it('reads a route’s decorators on its first request only', async () => {
    const reflector = new Reflector();
    const read = jest.spyOn(reflector, 'getAllAndOverride');
    const guard = new TestGuard(reflector, ['write']);
    const write = contextOf(KeyController, KeyController.prototype.write);
    await guard.canActivate(write);
    const first = read.mock.calls.length;
    expect(first).toBeGreaterThan(0);
    await guard.canActivate(write);
    await guard.canActivate(contextOf(KeyController, KeyController.prototype.write));
    expect(read.mock.calls.length).toBe(first);
  });

  it('keeps the answer of an inherited handler per controller', async () => {
    const guard = new TestGuard(new Reflector(), []);
    const shared = BaseController.prototype.shared;
    await expect(guard.canActivate(contextOf(OpenController, shared))).resolves.toBe(true);
    expect(await reasonOf(guard.canActivate(contextOf(KeyController, shared)))).toBe(
      CommonError.SCOPE_MISSING,
    );
    await expect(guard.canActivate(contextOf(OpenController, shared))).resolves.toBe(true);
  });
});
