from __future__ import annotations

from litestar import get
from litestar.datastructures import State

from smriti.providers.registry import ProviderList, ProviderRegistry


@get(
    "/providers",
    operation_id="listProviders",
    summary="Providers, whether configured, their models",
    tags=["Providers"],
)
async def list_providers(state: State) -> ProviderList:
    registry: ProviderRegistry = state.providers
    return registry.describe()
