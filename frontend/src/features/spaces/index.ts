export { spaceQuery, useSpace } from "./api/get-space";
export { spacesQuery, useSpaces } from "./api/list-spaces";
export { SpacesPage } from "./components/spaces-page";
