import type { Request, Response } from 'express';
import type { TRouteContract, TRouteInput } from '@palisade/contracts';
import type { Logger } from '../logging/logger';
import type { TPrincipal, TTenant } from '../auth/principal';

export interface TRequestContext {
  correlationId: string;
  log: Logger;
  principal?: TPrincipal;
  tenant?: TTenant;
  /** Raw access for the few routes that need it: cookies, streamed bodies, HTML pages. */
  req: Request;
  res: Response;
}

export interface TCookie {
  name: string;
  value: string;
  path: string;
  maxAgeSeconds: number;
}

export type TRouteResult =
  | {
      status: number;
      body?: unknown;
      headers?: Record<string, string>;
      setCookies?: TCookie[];
      clearCookies?: { name: string; path: string }[];
    }
  /** The handler wrote the response itself (streams, HTML). */
  | { handled: true };

export interface TBoundRoute<C extends TRouteContract = TRouteContract> {
  contract: C;
  handle(input: TRouteInput<C>, ctx: TRequestContext): Promise<TRouteResult>;
}

/** Binds a contract row to the function that serves it; the input type follows the contract. */
export function defineHandler<C extends TRouteContract>(
  contract: C,
  handle: (input: TRouteInput<C>, ctx: TRequestContext) => Promise<TRouteResult>,
): TBoundRoute<C> {
  return { contract, handle } as TBoundRoute<C>;
}

export type TAnyBoundRoute = TBoundRoute<any>;
