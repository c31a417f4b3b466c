"""Failed-authentication counts and rate tokens shared by the servers of one store, as the API
takes them: through the service layer, never from the store's modules."""

from hippograph.store.limits import clear_failures, record_failure, take_tokens

__all__ = ["clear_failures", "record_failure", "take_tokens"]
