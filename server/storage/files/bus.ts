/** The files store's message transport: this process only (processes sharing the folder share no bus), as memory's. */
export { default } from "../memory/bus";
