/**
 * A token bucket shared by every call of one client, so a failing server is not stormed: each retry spends
 * tokens, each success refunds a fraction. When the bucket runs dry, failures are returned instead of retried.
 */

export interface RetryBudgetOptions {
  /** Bucket size (default 20). */
  capacity?: number;
  /** Cost of a retry after an error status or network error (default 1). */
  retryCost?: number;
  /** Cost of a retry after a timeout, which ties up the server longer (default 2). */
  timeoutCost?: number;
  /** Refund per successful response (default 0.2). */
  successRefund?: number;
}

export interface RetryBudget {
  /** Tokens currently available. */
  readonly available: number;
  /** Spends the cost of one retry; false (and nothing spent) when the budget cannot cover it. */
  tryAcquire(afterTimeout?: boolean): boolean;
  /** Records a response the server handled (any non-retryable status). */
  recordSuccess(): void;
}

export function retryBudget({
  capacity = 20,
  retryCost = 1,
  timeoutCost = 2,
  successRefund = 0.2,
}: RetryBudgetOptions = {}): RetryBudget {
  let tokens = capacity;
  return {
    get available() {
      return tokens;
    },
    tryAcquire(afterTimeout) {
      const cost = afterTimeout ? timeoutCost : retryCost;
      if (tokens < cost) return false;
      tokens -= cost;
      return true;
    },
    recordSuccess() {
      tokens = Math.min(capacity, tokens + successRefund);
    },
  };
}
