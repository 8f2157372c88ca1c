export { providersQuery, useProviders } from "./api/list-providers";
export { ProviderPicker } from "./components/provider-picker";
export { type ProviderChoice, resolveChoice, useProviderChoice } from "./lib/choice";
