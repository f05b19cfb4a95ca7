export { startStack, PLANE_APPS, type TStack, type TStartStackOptions } from './start-stack';
export { startTestStack, type TTestStack } from './test-stack';
export { startEdgeNginx, freePort, nginxBinary, REPO_ROOT, type TEdgeNginx } from './edge-nginx';
