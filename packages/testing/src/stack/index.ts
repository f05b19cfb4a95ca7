export { startStack, PLANE_APPS, type TStack, type TStartStackOptions } from './start-stack';
export { startEdgeNginx, freePort, nginxBinary, REPO_ROOT, type TEdgeNginx } from './edge-nginx';
