export { spaceQuery, useSpace } from "./api/get-space";
export { useSpaces } from "./api/list-spaces";
export { SpacesPage } from "./components/spaces-page";
