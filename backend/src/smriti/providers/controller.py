from __future__ import annotations

from litestar import get
from litestar.di import NamedDependency

from smriti.core.error_docs import error_responses
from smriti.providers.registry import ProviderList, ProviderRegistry


@get(
    "/providers",
    operation_id="listProviders",
    summary="Providers, whether configured, their models",
    description=(
        "`models`: the configured default first, then the configured models, then the ones the "
        "provider lists itself (`GET /v1/models`, asked at most every 10 minutes); `listed` says "
        "whether it did."
    ),
    tags=["Providers"],
    responses=error_responses(),
)
async def list_providers(providers: NamedDependency[ProviderRegistry]) -> ProviderList:
    return await providers.describe()
