// A local S3-compatible server for the tests (@20minutes/s3rver, objects kept in a folder), run in
// a child process of its own so a test can stop it (the bucket unreachable) and start it again on
// the same port and folder. Started by s3-server.ts as:
//   node --openssl-legacy-provider s3-server-child.mjs <folder> <port> <bucket>
// s3rver makes ListObjectsV2's continuation tokens with DES, which Node's OpenSSL 3 keeps in its
// legacy provider; and it checks a listing's signature differently from the AWS SDK, so signatures
// are not checked (the client under test is AWS's own; what is tested is what it stores and reads).
import process from 'node:process';
import S3rver from '@20minutes/s3rver';

const [directory, port, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  directory,
  silent: true,
  allowMismatchedSignatures: true,
  configureBuckets: [{ name: bucket }],
});
const { port: listening } = await server.run();
process.stdout.write(`${JSON.stringify({ port: listening })}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
